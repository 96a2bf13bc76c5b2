"""`tablectl bench`: what the controller costs and how fast it is, each
figure beside a baseline measured in the same run.

Every part runs as its own process, as on a Pi at a table: a Mosquitto
broker, the controller (``python -m controller.cli run``, the production
daemon, unchanged), the simulated shoe, shuffler and dealer (``python -m
hw_sim.bench worker sim``, the same SimRig as ``tablectl sim``), and a pit
subscriber. All timestamps are CLOCK_MONOTONIC (``time.monotonic_ns()``),
which every process on the machine shares.

1. latency: the simulated shoe timestamps each card frame when the write of
   its last byte returns; the subscriber timestamps each ``card`` event as it
   arrives; the k-th frame is paired with the k-th event (face-up codes must
   agree). Baselines: the bare pipeline (a writer on a pseudo-terminal,
   pyserial reading it, paho-mqtt publishing each frame at QoS 1 to the same
   broker, the same subscriber) and the frame's wire time at the configured
   baud rate.
2. throughput: the dealer never pauses; rounds/s and events/s at the
   subscriber, CPU from /proc. Baselines: the bare pipeline at full speed,
   and the same controller with its journal on tmpfs (fsync for free).
3. many tables: N controllers and their simulators, one broker, one
   subscriber on every table's events; loss counted by seq against each
   journal. Baseline: N = 1 (the first of the list).
4. footprint: peak RSS (VmHWM), idle CPU (a table resting in ``result``),
   start to READY (the systemd ``READY=1`` datagram, through NOTIFY_SOCKET).
   Baseline: the bare pipeline's reader process, measured alongside.

The benchmark is a tool that drives the simulator and times the daemon from
outside, so it lives in hw_sim and imports nothing of controller/ (DESIGN.md,
import rule): the controller it measures is always a child process, and the
tables it deals are TOML files it writes itself, from the game registry
(hw_sim.table_config). `tablectl bench` (controller/cli.py) defines the
arguments and imports this module only when the command runs. The benchmark
is a tool, not a test: ``--smoke`` checks that it works.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import shlex
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from drivers.link import DEFAULT_BAUDRATE
from hw_sim.bench.proc import (
    BenchError,
    ReadySocket,
    Worker,
    cpu_seconds,
    cpu_seconds_precise,
    machine,
    python_argv,
    status_kb,
)
from hw_sim.bench.report import (
    breakdown,
    duplicates,
    first_receipts,
    latencies,
    loss_by_seq,
    pair_cards,
    ratio,
    summary_ms,
    table_markdown,
    table_text,
)
from hw_sim.broker import LocalBroker
from hw_sim.table_config import sim_table_raw, to_toml

GAME = "baccarat"
"""The game every table of the bench deals (its figures in docs/performance.md are baccarat's)."""
PHASES = ("latency", "throughput", "tables", "footprint", "pit", "floor")
"""The parts, in the order they run (``--only``; controller/cli.py lists them in its help too). All
but ``pit`` and ``floor`` run by default; those need PostgreSQL (hw_sim.bench.pit, hw_sim.bench.pit_floor)."""
WARMUP_ROUNDS = 5
"""Throughput is counted from this result on: the first deck check and shuffle are start-up."""

SMOKE = {"cards": 30, "rounds": 10, "tables": "1,2", "pace": 0.005, "tables_pace": 0.02,
         "tables_seconds": 2.0, "idle_seconds": 1.0, "bare_events": 300, "footprint_rounds": 3,
         "parallel": 2, "parallel_seconds": 2.0}


def run(args: argparse.Namespace) -> int:
    """The ``bench`` subcommand."""
    if args.smoke:
        from hw_sim.bench.pit import SMOKE as PIT_SMOKE
        from hw_sim.bench.pit_floor import SMOKE as FLOOR_SMOKE

        for key, value in {**SMOKE, **PIT_SMOKE, **FLOOR_SMOKE}.items():
            setattr(args, key, value)
    phases = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = sorted(set(phases) - set(PHASES))
    if unknown:
        print(f"tablectl bench: --only: unknown {', '.join(unknown)}; known: {', '.join(PHASES)}", file=sys.stderr)
        return 2
    try:
        counts = [int(n) for n in args.tables.split(",") if n.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        print(f"tablectl bench: --tables: a comma list of table counts, not {args.tables!r}", file=sys.stderr)
        return 2
    args.table_counts = counts
    if "floor" in phases:
        from hw_sim.bench.pit_floor import FloorArgsError, check_args

        try:
            check_args(args)   # before anything starts: a typo costs no broker, database or recording
        except FloorArgsError as exc:
            print(f"tablectl bench: {exc}", file=sys.stderr)
            return 2
    argv = getattr(args, "argv", None) or sys.argv[1:]
    result: dict[str, Any] = {"command": "tablectl " + shlex.join(argv) if argv else "tablectl bench",
                              "machine": machine(), "smoke": bool(args.smoke), "notes": []}
    tmp = tempfile.mkdtemp(prefix="tablectl-bench-")
    failed = True
    try:
        with Bench(args, Path(tmp)) as bench:
            result["broker"] = bench.broker.kind
            result["journal_filesystem"] = bench.journal_fs
            for phase in PHASES:
                if phase in phases:
                    _say(args, f"bench: {phase} ...")
                    started = time.monotonic()
                    result[phase] = getattr(bench, phase)()
                    _say(args, f"bench: {phase} done in {time.monotonic() - started:.0f} s")
            result["notes"] += bench.notes
        failed = False
    except BenchError as exc:
        print(f"tablectl bench: {exc}\n(worker logs in {tmp})", file=sys.stderr)
        return 1
    finally:
        if not args.keep and not failed:
            shutil.rmtree(tmp, ignore_errors=True)
    result["machine"]["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(table_text(result))
    if args.markdown:
        args.markdown.write_text(table_markdown(result) + "\n")
    return 0


def _say(args: argparse.Namespace, text: str) -> None:
    print(text, file=sys.stderr if args.json else sys.stdout, flush=True)


# -- the stack of one table --------------------------------------------------------------

class Stack:
    """One table: its simulator process and its controller (``tablectl run``)."""

    def __init__(self, bench: Bench, table: str, *, pace: float, cards: int = 0,
                 journal_dir: Path | None = None, progress: Callable[[int, str], None] | None = None) -> None:
        self.bench = bench
        self.table = table
        self.pace = pace
        self.cards = cards
        self.dir = bench.tmp / table
        self.dir.mkdir(parents=True, exist_ok=True)
        self.journal = (journal_dir or bench.journal_dir) / f"{table}-{next(bench.ids)}.db"
        # The simulated table of the demo, from the registry; the controller checks it as it
        # checks any file, and a table it refuses fails wait_ready() with the controller's reason.
        doc = sim_table_raw(GAME)
        doc["table"]["id"] = table
        doc["table"]["autostart"] = True
        doc["mqtt"].update(host=bench.broker.host, port=bench.broker.port)
        doc["journal"]["path"] = str(self.journal)
        for name, dev in doc["devices"].items():
            dev["url"] = str(self.dir / name)
        doc["dealer"]["remote_buttons"] = True
        self.config = self.dir / "table.toml"
        self.config.write_text(to_toml(doc))
        self.baudrate = doc["devices"]["shoe"].get("baudrate", DEFAULT_BAUDRATE)
        self.sim: Worker | None = None
        self.ctl: Worker | None = None
        self.ready: ReadySocket | None = None
        self.start_to_ready_s: float | None = None
        self.peak_rss_kb: int | None = None
        self.sent: list[list[Any]] = []
        self.progress = progress

    def start_sim(self) -> Stack:
        self.sim = self.bench.worker(f"{self.table}-sim", python_argv(
            "hw_sim.bench", "worker", "sim", "--config", str(self.config), "--pace", str(self.pace),
            "--cards", str(self.cards), "--seed", str(self.bench.args.seed), "--out", str(self.dir / "sent.json")))
        return self

    def start_controller(self) -> Stack:
        assert self.sim is not None
        self.ready = ReadySocket(self.dir / "notify.sock")
        self.ctl = self.bench.worker(f"{self.table}-ctl",
                                     python_argv("controller.cli", "run", "--config", str(self.config)),
                                     env={"NOTIFY_SOCKET": str(self.ready.path)})
        return self

    def wait_sim(self, timeout: float = 60.0) -> None:
        assert self.sim is not None
        self.sim.expect("ready", timeout)

    def wait_ready(self, timeout: float = 60.0) -> float:
        assert self.ctl is not None and self.ready is not None
        deadline = time.monotonic() + timeout
        at = self.ready.wait(min(timeout, 0.5))   # the socket's thread takes the time; this only waits
        while at is None and self.ctl.proc.poll() is None and time.monotonic() < deadline:
            at = self.ready.wait(min(0.5, max(0.0, deadline - time.monotonic())))
        if at is None:
            if self.ctl.proc.poll() is not None:   # a config it refused, say: the reason is in its log
                raise BenchError(f"{self.table}: the controller exited ({self.ctl.proc.returncode}) "
                                 f"before READY=1{self.ctl.tail()}")
            raise BenchError(f"{self.table}: the controller sent no READY=1 within {timeout:.0f} s{self.ctl.tail()}")
        self.start_to_ready_s = (at - self.ctl.started_ns) / 1e9
        return self.start_to_ready_s

    def pause(self) -> None:
        """The dealer stops at the next settle prompt: the table rests in ``result``."""
        assert self.sim is not None
        self.sim.send_signal(signal.SIGUSR1)

    def wait_paused(self, timeout: float) -> None:
        assert self.sim is not None
        self.sim.expect("paused", timeout)

    def stop(self) -> dict[str, Any]:
        """Stop the controller (it drains its PUBACKs), then the simulator;
        return what the journal holds (for loss by seq)."""
        if self.ctl is not None:
            self.peak_rss_kb = status_kb(self.ctl.pid, "VmHWM")
            rc = self.ctl.stop(20)
            if rc != 0:
                self.bench.notes.append(f"{self.table}: the controller exited with {rc}")
        if self.ready is not None:
            self.ready.close()
        if self.sim is not None:
            self.sim.stop(10)
            with contextlib.suppress(OSError, ValueError):
                self.sent = json.loads((self.dir / "sent.json").read_text())["sent"]
        return self.journal_counts()

    def journal_counts(self) -> dict[str, int]:
        import sqlite3

        try:
            db = sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True)
            try:
                top = db.execute("SELECT MAX(seq) FROM events").fetchone()[0] or 0
                undelivered = db.execute("SELECT COUNT(*) FROM events WHERE delivered = 0").fetchone()[0]
            finally:
                db.close()
        except sqlite3.Error as exc:
            raise BenchError(f"{self.table}: cannot read the journal {self.journal}: {exc}") from exc
        return {"journaled": top, "undelivered": undelivered}


# -- the benchmark ------------------------------------------------------------------------

class Bench:
    def __init__(self, args: argparse.Namespace, tmp: Path) -> None:
        self.args = args
        self.tmp = tmp
        self.journal_dir = args.journal_dir or tmp / "journals"
        self.journal_dir.mkdir(parents=True, exist_ok=True)
        self.broker = LocalBroker(prefer="mosquitto")
        self.workers: list[Worker] = []
        self.notes: list[str] = []
        self.ids = itertools.count(1)
        self.footprint_extra: dict[str, Any] = {"start_to_ready_s": [], "peak_rss_kb": []}
        self.wall_minus_monotonic_s: float | None = None
        self.journal_fs: str | None = None

    def __enter__(self) -> Bench:
        try:
            self.broker.start()
        except RuntimeError as exc:
            raise BenchError(f"needs Mosquitto: {exc}") from exc
        fs = _filesystem(self.journal_dir)
        self.journal_fs = fs
        if fs in ("tmpfs", "ramfs"):
            self.notes.append(f"the journals are on {fs} ({self.journal_dir}): fsync costs nothing there; "
                              "give --journal-dir on the disk the table's journal lives on")
        return self

    def __exit__(self, *exc: object) -> None:
        for w in reversed(self.workers):
            if w.proc.poll() is None:
                w.stop(5)
        self.broker.stop()

    def worker(self, name: str, argv: list[str], **kw: Any) -> Worker:
        w = Worker(name, argv, self.tmp, **kw)
        self.workers.append(w)
        return w

    def subscriber(self, name: str, topics: list[str], progress: list[str] | None = None,
                   on_line: Callable[[int, str], None] | None = None) -> Worker:
        argv = python_argv("hw_sim.bench", "worker", "subscriber", "--name", name,
                           "--host", self.broker.host, "--port", str(self.broker.port),
                           "--out", str(self.tmp / f"sub-{name}.json"))
        for t in topics:
            argv += ["--topic", t]
        for k in progress or ():
            argv += ["--progress", k]
        sub = self.worker(f"sub-{name}", argv, on_line=on_line)
        sub.expect("ready", 30)
        return sub

    def collect(self, sub: Worker, name: str) -> list[list[Any]]:
        """Stop a subscriber and read what it received (and remember its clock offset)."""
        sub.stop(60)
        try:
            data = json.loads((self.tmp / f"sub-{name}.json").read_text())
        except (OSError, ValueError) as exc:
            raise BenchError(f"subscriber {name} wrote no results: {exc}{sub.tail()}") from exc
        self.wall_minus_monotonic_s = data.get("wall_minus_monotonic_s")
        if data.get("not_json"):
            self.notes.append(f"subscriber {name}: {data['not_json']} messages were not JSON")
        return data["records"]

    # -- the bare pipeline ----------------------------------------------------------

    def bare(self, name: str, sub: Worker, count: int, pace: float, *,
             keep_reader: bool = False, durable: bool = False) -> dict[str, Any]:
        """Writer -> pty -> pyserial -> paho QoS 1 -> broker -> ``sub`` (subscribed to
        ``bench/bare/event/#`` with progress ``end``). Returns the writer's send
        times and the reader's figures; with ``keep_reader`` the reader stays up
        (idle) until :meth:`stop_bare_reader`."""
        link = self.tmp / f"bare-{name}.pty"
        out = self.tmp / f"bare-{name}.json"
        writer = self.worker(f"bare-writer-{name}", python_argv(
            "hw_sim.bench", "worker", "bare-writer", "--device", str(link), "--count", str(count),
            "--pace", str(pace), "--seed", str(self.args.seed), "--out", str(out)))
        writer.expect("ready", 30)
        ready = ReadySocket(self.tmp / f"bare-{name}.sock")
        extra = ["--table", "durable", "--journal", str(self.journal_dir / f"durable-{name}.db")] if durable else []
        reader = self.worker(f"bare-reader-{name}", python_argv(
            "hw_sim.bench", "worker", "bare-reader", "--name", name, "--device", str(link),
            "--host", self.broker.host, "--port", str(self.broker.port), *extra),
            env={"NOTIFY_SOCKET": str(ready.path)})
        at = ready.wait(60)
        ready.close()
        if at is None:
            raise BenchError(f"bare reader sent no READY=1{reader.tail()}")
        reader.expect("ready", 30)
        cpu0 = cpu_seconds(reader.pid)
        writer.send("go")
        writer.expect("done", 60 + count * (pace + 0.01))
        sub.expect("P end", 60)   # the last frame's event arrived: everything before it did
        figures = {"start_to_ready_s": (at - reader.started_ns) / 1e9, "reader": reader, "writer": writer,
                   "cpu0": cpu0, "out": out}
        if not keep_reader:
            self.stop_bare_reader(figures)
        return figures

    def stop_bare_reader(self, figures: dict[str, Any]) -> None:
        """Stop the bare reader, then its writer (whose pty going away would end the reader)."""
        reader: Worker = figures.pop("reader")
        figures["cpu_s"] = (cpu_seconds(reader.pid) or 0.0) - (figures["cpu0"] or 0.0)
        figures["peak_rss_kb"] = status_kb(reader.pid, "VmHWM")
        if reader.proc.poll() is not None:
            self.notes.append(f"the bare reader ended early ({reader.proc.returncode}){reader.tail(3)}")
        reader.stop(10)
        figures.pop("writer").stop(10)
        figures["sent"] = json.loads(figures.pop("out").read_text())["sent"]

    # -- 1. latency -------------------------------------------------------------------

    def latency(self) -> dict[str, Any]:
        a = self.args
        sub = self.subscriber("latency", ["bench/bare/event/#", "bench/durable/event/#", "casino/+/event/card"],
                              progress=["end"])
        bare = self.bare("latency", sub, a.cards, a.pace)
        _wait_quiet(0.5)
        durable = self.bare("latency-durable", sub, a.cards, a.pace, durable=True)
        _wait_quiet(0.5)
        stack = Stack(self, "bench-lat", pace=a.pace, cards=a.cards).start_sim()
        stack.wait_sim()
        stack.start_controller()
        self.footprint_extra["start_to_ready_s"].append(stack.wait_ready())
        stack.wait_paused(120 + a.cards * (a.pace * 3 + 0.05))
        _wait_quiet(0.5)
        counts = stack.stop()
        self.footprint_extra["peak_rss_kb"].append(stack.peak_rss_kb)
        records = self.collect(sub, "latency")
        got = first_receipts(records)
        ctl_pairs, ctl_bad = pair_cards(stack.sent, got.get(stack.table, {}))
        bare_pairs, bare_bad = pair_cards(bare["sent"], got.get("bare", {}))
        durable_pairs, durable_bad = pair_cards(durable["sent"], got.get("durable", {}))
        for what, bad in (("controller", ctl_bad), ("bare", bare_bad), ("durable", durable_bad)):
            if bad:
                self.notes.append(f"latency: {bad} {what} cards did not pair with their events (skipped)")
        ctl, base = summary_ms(latencies(ctl_pairs)), summary_ms(latencies(bare_pairs))
        dur = summary_ms(latencies(durable_pairs))
        wire = _wire_ms([code for _, code in stack.sent], stack.baudrate)
        if counts["undelivered"]:
            self.notes.append(f"latency: {counts['undelivered']} events still undelivered in the journal")
        return {
            "cards": a.cards, "pace_s": a.pace, "controller": ctl, "bare": base, "durable": dur,
            "ratio_to_durable": {k[:-3]: ratio(ctl[k], dur[k]) for k in ("p50_ms", "p99_ms", "max_ms")},
            "controller_breakdown": breakdown(ctl_pairs, self.wall_minus_monotonic_s),
            "wire": {"baudrate": stack.baudrate, "ms": wire},
            "ratio_to_bare": {k[:-3]: ratio(ctl[k], base[k]) for k in ("p50_ms", "p99_ms", "max_ms")},
            "ratio_to_wire": {k[:-3]: ratio(ctl[k], wire) for k in ("p50_ms", "p99_ms", "max_ms")},
            "goals": {"p50": _le(ratio(ctl["p50_ms"], base["p50_ms"]), 1.5),
                      "p99": _le(ratio(ctl["p99_ms"], base["p99_ms"]), 2.0),
                      "p50_durable": _le(ratio(ctl["p50_ms"], dur["p50_ms"]), 1.3)},
        }

    # -- 2. throughput ------------------------------------------------------------------

    def throughput(self) -> dict[str, Any]:
        a = self.args
        sub = self.subscriber("bare-max", ["bench/bare/event/#"], progress=["end"])
        bare = self.bare("max", sub, a.bare_events, 0.0)
        records = self.collect(sub, "bare-max")
        cards = sorted(r[0] for r in records if r[3] == "card")
        bare_eps = (len(cards) - 1) / ((cards[-1] - cards[0]) / 1e9) if len(cards) > 1 else None
        if len(cards) != a.bare_events:
            self.notes.append(f"throughput: the bare pipeline delivered {len(cards)} of {a.bare_events} frames")
        bare_cpu_per_event = bare["cpu_s"] / max(1, len(cards))
        sub = self.subscriber("durable-max", ["bench/durable/event/#"], progress=["end"])
        durable = self.bare("max-durable", sub, a.bare_events, 0.0, durable=True)
        durable_cards = sorted(r[0] for r in self.collect(sub, "durable-max") if r[3] == "card")
        durable_cpu_per_event = durable["cpu_s"] / max(1, len(durable_cards))
        durable_eps = ((len(durable_cards) - 1) / ((durable_cards[-1] - durable_cards[0]) / 1e9)
                       if len(durable_cards) > 1 else None)

        disk = self._rounds_run("thr", self.journal_dir)
        tmpfs = None
        shm = Path("/dev/shm")
        if not a.no_tmpfs_baseline and shm.is_dir() and os.access(shm, os.W_OK):
            shm_dir = Path(tempfile.mkdtemp(prefix="tablectl-bench-", dir=shm))
            try:
                tmpfs = self._rounds_run("thr-tmpfs", shm_dir)
            finally:
                shutil.rmtree(shm_dir, ignore_errors=True)
        parallel = self._parallel_run(a.parallel) if a.parallel > 1 else None
        events_per_round = disk["events_per_round"]
        bare_cpu_1000 = bare_cpu_per_event * events_per_round * 1000 if events_per_round else None
        return {
            "rounds": a.rounds,
            "controller": disk,
            "journal_tmpfs": tmpfs,
            "parallel": parallel,
            "bare": {"events": len(cards), "events_per_s": _r(bare_eps), "cpu_s_reader": _r(bare["cpu_s"], 3),
                     "cpu_s_per_1000_rounds_of_events": _r(bare_cpu_1000, 3),
                     "cpu_ms_per_event": _r(bare_cpu_per_event * 1000, 4)},
            "durable": {"events": len(durable_cards), "events_per_s": _r(durable_eps),
                        "cpu_ms_per_event": _r(durable_cpu_per_event * 1000, 4)},
            "ratios": {"events_per_s_to_bare": ratio(disk["events_per_s"], bare_eps, 3),
                       "controller_cpu_to_bare": ratio(disk["cpu_s_per_1000_rounds"]["controller"], bare_cpu_1000),
                       "controller_cpu_per_event_to_bare": ratio(disk["cpu_ms_per_event"], bare_cpu_per_event * 1000),
                       "controller_cpu_per_event_to_durable": ratio(disk["cpu_ms_per_event"],
                                                                    durable_cpu_per_event * 1000),
                       "rounds_per_s_disk_to_tmpfs": ratio(disk["rounds_per_s"], tmpfs and tmpfs["rounds_per_s"]),
                       "parallel_to_one": ratio(parallel and parallel["rounds_per_s"], disk["rounds_per_s"])},
            "goals": {"rounds_per_s": _ge(disk["rounds_per_s"], 300),
                      "controller_cpu_per_event": _le(ratio(disk["cpu_ms_per_event"], bare_cpu_per_event * 1000), 2.5),
                      "controller_cpu_per_event_durable": _le(ratio(disk["cpu_ms_per_event"],
                                                                    durable_cpu_per_event * 1000), 2.5)},
        }

    def _rounds_run(self, name: str, journal_dir: Path) -> dict[str, Any]:
        """One table dealing flat out; rounds and CPU counted from result
        WARMUP_ROUNDS to result WARMUP_ROUNDS + rounds."""
        a = self.args
        first, last = WARMUP_ROUNDS, WARMUP_ROUNDS + a.rounds
        marks: dict[int, tuple[int, dict[str, float | None]]] = {}
        done = threading.Event()
        results = itertools.count(1)
        pids: dict[str, int] = {}

        def on_line(_now: int, line: str) -> None:
            parts = line.split()
            if len(parts) != 4 or parts[1] != "result":
                return
            n = next(results)
            if n in (first, last):
                marks[n] = (int(parts[3]), {k: cpu_seconds(p) for k, p in pids.items()})
                if n == last:
                    done.set()

        sub = self.subscriber(name, ["casino/+/event/#"], progress=["result"], on_line=on_line)
        stack = Stack(self, f"bench-{name}", pace=0.0, journal_dir=journal_dir).start_sim()
        stack.wait_sim()
        assert stack.sim is not None and self.broker._proc is not None
        pids.update(sim=stack.sim.pid, broker=self.broker._proc.pid, subscriber=sub.pid)
        stack.start_controller()
        assert stack.ctl is not None
        pids["controller"] = stack.ctl.pid
        self.footprint_extra["start_to_ready_s"].append(stack.wait_ready())
        if not done.wait(120 + a.rounds * 0.5):
            raise BenchError(f"{name}: {len(marks)} marks; the table did not deal {last} rounds in time"
                             f"{stack.ctl.tail()}")
        stack.pause()
        stack.wait_paused(60)
        _wait_quiet(0.5)
        counts = stack.stop()
        self.footprint_extra["peak_rss_kb"].append(stack.peak_rss_kb)
        records = self.collect(sub, name)
        (t0, cpu0), (t1, cpu1) = marks[first], marks[last]
        seconds = (t1 - t0) / 1e9
        events = sum(1 for r in records if t0 < r[0] <= t1 and r[1] == stack.table)
        cpu = {k: _r((cpu1[k] or 0) - (cpu0[k] or 0), 3) for k in pids}
        got = first_receipts(records).get(stack.table, {})
        lost = loss_by_seq(got, counts["journaled"])
        if lost:
            self.notes.append(f"{name}: {lost} events lost by seq")
        return {
            "rounds": a.rounds, "seconds": _r(seconds, 3), "rounds_per_s": _r(a.rounds / seconds),
            "events_per_s": _r(events / seconds), "events_per_round": _r(events / a.rounds),
            "cpu_s": cpu,
            "cpu_s_per_1000_rounds": {"controller": _r(cpu["controller"] / a.rounds * 1000, 3),
                                      "all": _r(sum(cpu.values()) / a.rounds * 1000, 3)},
            "cpu_cores_busy": _r(sum(cpu.values()) / seconds, 2),
            "cpu_ms_per_event": _r(cpu["controller"] * 1000 / events, 4) if events else None,
            "lost": lost, "journal": str(journal_dir),
        }

    def _parallel_run(self, n: int) -> dict[str, Any]:
        """``n`` tables dealing flat out at once: what two cores carry in all,
        as opposed to what one table's chain of round trips allows."""
        a = self.args
        results: dict[str, int] = {}
        warm = threading.Event()

        def on_line(_now: int, line: str) -> None:
            parts = line.split()
            if len(parts) == 4 and parts[1] == "result":
                results[parts[2]] = results.get(parts[2], 0) + 1
                if len(results) == n and min(results.values()) >= WARMUP_ROUNDS:
                    warm.set()

        sub = self.subscriber(f"par-{n}", ["casino/+/event/result"], progress=["result"], on_line=on_line)
        stacks = [Stack(self, f"bench-par-{i:02d}", pace=0.0) for i in range(1, n + 1)]
        for s in stacks:
            s.start_sim()
        for s in stacks:
            s.wait_sim()
        for s in stacks:
            s.start_controller()
        for s in stacks:
            s.wait_ready()
        if not warm.wait(120):
            raise BenchError(f"parallel: not every one of {n} tables completed {WARMUP_ROUNDS} rounds")
        assert self.broker._proc is not None
        ctl_pids = [s.ctl.pid for s in stacks]  # type: ignore[union-attr]
        pids = ctl_pids + [s.sim.pid for s in stacks] + [sub.pid, self.broker._proc.pid]  # type: ignore[union-attr]
        cpu0, ctl0, t0 = _cpu(pids), _cpu(ctl_pids), time.monotonic_ns()
        time.sleep(a.parallel_seconds)
        cpu1, ctl1, t1 = _cpu(pids), _cpu(ctl_pids), time.monotonic_ns()
        for s in stacks:
            s.pause()
        for s in stacks:
            s.wait_paused(60)
        _wait_quiet(0.5)
        counts = {s.table: s.stop() for s in stacks}
        records = self.collect(sub, f"par-{n}")
        rounds = sum(1 for r in records if t0 < r[0] <= t1 and r[3] == "result")
        seconds = (t1 - t0) / 1e9
        return {"tables": n, "seconds": _r(seconds, 2), "rounds_per_s": _r(rounds / seconds),
                "cpu_cores_busy": _r((cpu1 - cpu0) / seconds, 2),
                "cpu_s_per_1000_rounds": {"controllers": _r((ctl1 - ctl0) / max(1, rounds) * 1000, 3),
                                          "all": _r((cpu1 - cpu0) / max(1, rounds) * 1000, 3)},
                "undelivered": sum(c["undelivered"] for c in counts.values())}

    # -- 3. many tables ----------------------------------------------------------------

    def tables(self) -> list[dict[str, Any]]:
        out = []
        for n in self.args.table_counts:
            out.append(self._tables(n))
        base = out[0]
        for row in out:
            row["baseline_events_per_s"] = base["events_per_s"]
            row["baseline_p99_ms"] = base["latency"]["p99_ms"]
            row["ratio_events_per_s"] = ratio(row["events_per_s"], base["events_per_s"])
            row["ratio_p99"] = ratio(row["latency"]["p99_ms"], base["latency"]["p99_ms"])
        return out

    def _tables(self, n: int) -> dict[str, Any]:
        a = self.args
        started: dict[str, int] = {}
        all_started = threading.Event()

        def on_line(now: int, line: str) -> None:
            parts = line.split()
            if len(parts) == 4 and parts[1] == "round_start":
                started.setdefault(parts[2], int(parts[3]))
                if len(started) >= n:
                    all_started.set()

        sub = self.subscriber(f"tables-{n}", ["casino/+/event/#"], progress=["round_start"], on_line=on_line)
        stacks = [Stack(self, f"bench-t{n}-{i:02d}", pace=a.tables_pace) for i in range(1, n + 1)]
        for s in stacks:
            s.start_sim()
        for s in stacks:
            s.wait_sim(60 + n * 2)
        for s in stacks:
            s.start_controller()
        ready = [s.wait_ready(60 + n * 2) for s in stacks]
        if not all_started.wait(60 + n * 3):
            raise BenchError(f"{n} tables: only {len(started)} tables started dealing")
        pids = [p for s in stacks for p in (s.ctl.pid, s.sim.pid)] + [sub.pid, self.broker._proc.pid]  # type: ignore[union-attr]
        cpu0 = sum(cpu_seconds(p) or 0 for p in pids)
        ctl_cpu0 = sum(cpu_seconds(s.ctl.pid) or 0 for s in stacks)  # type: ignore[union-attr]
        t0 = time.monotonic_ns()
        time.sleep(a.tables_seconds)
        t1 = time.monotonic_ns()
        cpu1 = sum(cpu_seconds(p) or 0 for p in pids)
        ctl_cpu1 = sum(cpu_seconds(s.ctl.pid) or 0 for s in stacks)  # type: ignore[union-attr]
        for s in stacks:
            s.pause()
        for s in stacks:
            s.wait_paused(60 + a.tables_pace * 60)
        _wait_quiet(1.0)
        counts = {s.table: s.stop() for s in stacks}
        records = self.collect(sub, f"tables-{n}")
        got = first_receipts(records)
        seconds = (t1 - t0) / 1e9
        lost = sum(loss_by_seq(got.get(t, {}), c["journaled"]) for t, c in counts.items())
        window: list[int] = []
        for s in stacks:
            pairs, bad = pair_cards(s.sent, got.get(s.table, {}))
            if bad:
                self.notes.append(f"{n} tables: {s.table}: {bad} cards did not pair with their events")
            window += latencies(p for p in pairs if t0 <= p[0] <= t1)
        return {
            "n": n, "seconds": _r(seconds, 2), "pace_s": a.tables_pace,
            "events_per_s": _r(sum(1 for r in records if t0 < r[0] <= t1) / seconds),
            "latency": summary_ms(window),
            "journaled": sum(c["journaled"] for c in counts.values()),
            "lost": lost, "duplicates": duplicates(records),
            "undelivered": sum(c["undelivered"] for c in counts.values()),
            "start_to_ready_s": {"median": _r(statistics.median(ready), 3), "max": _r(max(ready), 3)},
            "cpu_cores_busy": _r((cpu1 - cpu0) / seconds, 2),
            "controller_cpu_pct_each": _r((ctl_cpu1 - ctl_cpu0) / seconds / n * 100, 2),
        }

    # -- 5. the pit (hw_sim.bench.pit) -------------------------------------------------------

    def pit(self) -> dict[str, Any]:
        from hw_sim.bench.pit import run_pit

        return run_pit(self)

    # -- 6. the pit at a floor's scale (hw_sim.bench.pit_floor) --------------------------------

    def floor(self) -> dict[str, Any]:
        from hw_sim.bench.pit_floor import run_floor

        return run_floor(self)

    # -- 4. footprint ----------------------------------------------------------------------

    def footprint(self) -> dict[str, Any]:
        a = self.args
        sub = self.subscriber("footprint", ["bench/bare/event/#"], progress=["end"])
        bare = self.bare("footprint", sub, 1000, 0.0, keep_reader=True)
        results = itertools.count(1)
        enough = threading.Event()

        def on_line(_now: int, line: str) -> None:
            if line.split()[1:2] == ["result"] and next(results) >= a.footprint_rounds:
                enough.set()

        rsub = self.subscriber("footprint-rounds", ["casino/+/event/result"], progress=["result"], on_line=on_line)
        stack = Stack(self, "bench-fp", pace=0.0).start_sim()
        stack.wait_sim()
        stack.start_controller()
        start_to_ready = stack.wait_ready()
        if not enough.wait(120 + a.footprint_rounds * 0.5):
            raise BenchError("footprint: the table did not deal its rounds in time")
        stack.pause()
        stack.wait_paused(60)
        _wait_quiet(1.0)
        assert stack.ctl is not None
        reader: Worker = bare["reader"]
        c0, b0, t0 = cpu_seconds_precise(stack.ctl.pid), cpu_seconds_precise(reader.pid), time.monotonic()
        time.sleep(a.idle_seconds)
        c1, b1, t1 = cpu_seconds_precise(stack.ctl.pid), cpu_seconds_precise(reader.pid), time.monotonic()
        idle = (c1 - c0) / (t1 - t0) * 100 if c0 is not None and c1 is not None else None
        bare_idle = (b1 - b0) / (t1 - t0) * 100 if b0 is not None and b1 is not None else None
        stack.stop()
        self.stop_bare_reader(bare)
        self.collect(rsub, "footprint-rounds")
        self.collect(sub, "footprint")
        rss_kb = max([k for k in [stack.peak_rss_kb, *self.footprint_extra["peak_rss_kb"]] if k] or [0]) or None
        peak = _r(rss_kb / 1024, 1) if rss_kb else None
        bare_peak = _r(bare["peak_rss_kb"] / 1024, 1) if bare.get("peak_rss_kb") else None
        return {
            "peak_rss_mb": peak, "bare_peak_rss_mb": bare_peak,
            "peak_rss_mb_this_run": _r((stack.peak_rss_kb or 0) / 1024, 1),
            "idle_cpu_pct": _r(idle, 3), "bare_idle_cpu_pct": _r(bare_idle, 3), "idle_seconds": a.idle_seconds,
            "start_to_ready_s": _r(start_to_ready, 3), "bare_start_to_ready_s": _r(bare["start_to_ready_s"], 3),
            "start_to_ready_s_other_runs": [_r(x, 3) for x in self.footprint_extra["start_to_ready_s"]],
            "ratios": {"peak_rss": ratio(peak, bare_peak), "idle_cpu": ratio(idle, bare_idle),
                       "start_to_ready": ratio(start_to_ready, bare["start_to_ready_s"])},
            "goals": {"peak_rss": _lt(peak, 60), "idle_cpu": _lt(idle, 1.0), "start_to_ready": _lt(start_to_ready, 1.5)},
        }


def _filesystem(path: Path) -> str | None:
    """The type of the filesystem ``path`` is on (the longest mount point that holds it)."""
    best, kind = "", None
    with contextlib.suppress(OSError):
        real = str(path.resolve())
        for line in Path("/proc/mounts").read_text().splitlines():
            fields = line.split()
            if len(fields) > 2 and (real == fields[1] or real.startswith(fields[1].rstrip("/") + "/")) \
                    and len(fields[1]) > len(best):
                best, kind = fields[1], fields[2]
    return kind


def _cpu(pids: list[int]) -> float:
    return sum(cpu_seconds(p) or 0.0 for p in pids)


def _wire_ms(codes: list[str], baudrate: int) -> float | None:
    """Mean wire time of the card frames at 8N1 (ten bit times per byte)."""
    from drivers.framing import OVERHEAD

    if not codes:
        return None
    return round(statistics.fmean(OVERHEAD + len(c) for c in codes) * 10 / baudrate * 1000, 4)


def _wait_quiet(seconds: float) -> None:
    """Let in-flight messages land between steps (not a measurement)."""
    time.sleep(seconds)


def _r(value: float | None, digits: int = 1) -> float | None:
    return None if value is None else round(value, digits)


def _le(value: float | None, limit: float) -> bool | None:
    return None if value is None else value <= limit


def _lt(value: float | None, limit: float) -> bool | None:
    return None if value is None else value < limit


def _ge(value: float | None, limit: float) -> bool | None:
    return None if value is None else value >= limit
