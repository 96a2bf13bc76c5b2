"""`tablectl bench --only pit`: what browsers on the pit board cost the archive (issue 26).

One `tablectl pit --db --http` (the production command, a child process) archives the events of
simulated tables into PostgreSQL and serves the board, while N browsers hold the board's event
stream open: none, then 50, 200, 500 and 2,000 (``--pit-streams``), each count twice, browsers
that read what comes (``read``) and browsers that never read again (``unread``). Each run has its
own pit process, database and topic prefix, so nothing of one run is left in the next.

The tables are real events at a set rate: a simulated table (the controller and its simulator, as
in the other parts) deals for a moment first, and its journal is the recording that
``worker pit-tables`` replays as ``--pit-tables`` tables publishing ``--pit-rate`` events a second
together, on a fixed schedule (hw_sim.bench.pit_workers).

Figures of each run, over a window of ``--pit-seconds`` after ``--pit-warmup``:

- **archive lag**: events published less events in the archive (``SELECT count(*)``), sampled every
  second; at the window's start and end, and its slope (least squares, events per second: 0 when
  the archive keeps up, the issue's 66 when it did not);
- **archive latency**: the archive's ``received_at`` (PostgreSQL's clock at the batch's commit
  transaction) less the event's ``ts`` (the publisher's clock at the publish), p50, p99 and max of
  the window's events;
- **pit CPU** (/proc, all its threads) as a share of a core, and beside the run without browsers;
- **threads** of the pit process (the most seen);
- **page load**: ``GET /`` and ``GET /api/tables`` timed from the bench, a fresh connection each,
  p50 and max;
- what the browsers got: patches per browser per second (``read``), streams the board closed.

The baseline is the run without browsers, measured in the same bench. Nothing here asserts a time:
it is a tool (``--smoke`` only checks that every figure is produced).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hw_sim.bench.proc import BenchError, Worker, cpu_seconds, python_argv
from hw_sim.broker import free_port

SMOKE = {"pit_streams": "0,5", "pit_seconds": 3.0, "pit_warmup": 1.0, "pit_rate": 20.0, "pit_tables": 2,
         "pit_record": 300}


def run_pit(bench: Any) -> dict[str, Any]:
    """The pit part, on the bench's broker (hw_sim.bench.harness.Bench)."""
    a = bench.args
    try:
        counts = [int(n) for n in a.pit_streams.split(",") if n.strip()]
    except ValueError:
        raise BenchError(f"--pit-streams: a comma list of stream counts, not {a.pit_streams!r}") from None
    with postgres(bench, "pit") as admin:
        recording = _record(bench, a.pit_record)
        runs = []
        n = 0
        for count in counts:
            for mode in ("read", "unread") if count else ("none",):
                n += 1
                _say(bench, f"bench: pit: {count} streams, {mode} ...")
                runs.append(_one(bench, admin, recording, n, count, mode))
    base = next((r for r in runs if r["streams"] == 0), None)
    for r in runs:
        r["cpu_to_no_streams"] = _ratio(r["pit_cpu_pct"], base and base["pit_cpu_pct"])
    return {"rate": a.pit_rate, "tables": a.pit_tables, "seconds": a.pit_seconds, "warmup": a.pit_warmup,
            "pit_source": str(a.pit_source) if a.pit_source else None, "recorded_events": len(recording["events"]),
            "runs": runs}


@contextlib.contextmanager
def postgres(bench: Any, part: str) -> Iterator[str]:
    """The admin URL of a PostgreSQL the part may create databases in: ``--db``, or a cluster of the
    bench's own (initdb), stopped at the end."""
    if bench.args.db:
        yield bench.args.db
        return
    from hw_sim.postgres import LocalPostgres

    try:
        server = LocalPostgres().start()
    except RuntimeError as exc:
        raise BenchError(f"{part}: {exc}") from exc
    try:
        yield server.url()
    finally:
        server.stop()


def _say(bench: Any, text: str) -> None:
    from hw_sim.bench.harness import _say as say

    say(bench.args, text)


# -- the recording ----------------------------------------------------------------------

def _record(bench: Any, events: int) -> dict[str, Any]:
    """A real simulated table deals until its journal holds ``events`` events: those envelopes and
    its birth message (its retained status) are what the bench's tables publish."""
    import sqlite3

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from hw_sim.bench.harness import Stack

    stack = Stack(bench, "bench-rec", pace=0.0).start_sim()
    status: dict[str, Any] = {}
    got = threading.Event()

    def on_message(_c: Any, _u: Any, msg: mqtt.MQTTMessage) -> None:
        with contextlib.suppress(ValueError):
            body = json.loads(msg.payload)
            if isinstance(body, dict) and body.get("online") is True:
                status.update(body)
                got.set()

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-pit-recorder")
    client.on_message = on_message
    client.on_connect = lambda c, *a: c.subscribe("casino/bench-rec/status", qos=1)
    client.connect(bench.broker.host, bench.broker.port)
    client.loop_start()
    try:
        stack.wait_sim()
        stack.start_controller()
        stack.wait_ready()
        if not got.wait(30):
            raise BenchError("pit: the recorded table published no status")
        deadline = time.monotonic() + 120
        while stack.journal_counts()["journaled"] < events:
            if time.monotonic() > deadline:
                raise BenchError(f"pit: the recorded table did not journal {events} events in 120 s")
            time.sleep(0.2)
        stack.pause()
        stack.wait_paused(60)
    finally:
        client.loop_stop()
        client.disconnect()
        stack.stop()
    db = sqlite3.connect(f"file:{stack.journal}?mode=ro", uri=True)
    try:
        rows = [json.loads(e) for (e,) in db.execute("SELECT envelope FROM events ORDER BY seq")]
    finally:
        db.close()
    return {"status": status, "events": rows}


# -- one run ---------------------------------------------------------------------------

def _one(bench: Any, admin: str, recording: dict[str, Any], n: int, streams: int, mode: str) -> dict[str, Any]:
    import psycopg

    a = bench.args
    dbname = f"pitbench_{os.getpid()}_{n}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')
    url = admin.rsplit("/", 1)[0] + "/" + dbname
    rec_file = bench.tmp / "pit-recording.json"
    if not rec_file.exists():
        rec_file.write_text(json.dumps(recording))
    prefix, port = f"bench{n}", free_port()
    env = {"PYTHONPATH": str(a.pit_source)} if a.pit_source else None
    pit = bench.worker(f"pit-{n}", python_argv(
        "controller.cli", "pit", "--broker", f"{bench.broker.host}:{bench.broker.port}", "--db", url,
        "--http", f"127.0.0.1:{port}", "--prefix", prefix, "--client-id", f"bench-pit-{n}",
        "--status-interval", "1"), env=env, cwd=bench.tmp)
    published: list[tuple[int, int]] = [(time.monotonic_ns(), 0)]

    def on_tables(_now: int, line: str) -> None:
        parts = line.split()
        if len(parts) == 3 and parts[0] == "S":
            published.append((int(parts[1]), int(parts[2])))

    tables: Worker | None = None
    browsers: Worker | None = None
    try:
        pit.expect("tablectl pit:", 60)
        tables = bench.worker(f"pit-tables-{n}", python_argv(
            "hw_sim.bench", "worker", "pit-tables", "--name", f"bt{n}", "--host", bench.broker.host,
            "--port", str(bench.broker.port), "--prefix", prefix, "--recording", str(rec_file),
            "--tables", str(a.pit_tables), "--rate", str(a.pit_rate)), on_line=on_tables)
        tables.expect("ready", 30)
        out = bench.tmp / f"pit-streams-{n}.json"
        if streams:
            browsers = bench.worker(f"pit-streams-{n}", python_argv(
                "hw_sim.bench", "worker", "board-streams", "--host", "127.0.0.1", "--port", str(port),
                "--count", str(streams), "--mode", mode, "--out", str(out)))
            browsers.expect("ready", 120 + streams * 0.1)
        time.sleep(a.pit_warmup)
        others = {"browsers": browsers.pid if browsers is not None else None, "tables": tables.pid,
                  "postgres": None}
        samples = _window(a.pit_seconds, pit.pid, port, url, published, others)
        if browsers is not None:
            browsers.stop(60)
            browsers = None
        tables.stop(10)
        tables = None
        archive = _latency(url, samples["wall_start"], samples["wall_end"])
        seen = json.loads(out.read_text()) if streams else {}
    finally:
        for w in (browsers, tables):
            if w is not None:
                w.stop(10)
        rc = pit.stop(40)
        if rc != 0:
            bench.notes.append(f"pit: run {n}: tablectl pit exited with {rc}{pit.tail(3)}")
    lag = samples["lag"]
    seconds = samples["seconds"]
    return {
        "streams": streams, "mode": mode, "seconds": round(seconds, 1),
        "events_per_s": _r(samples["published"] / seconds, 1),
        "lag_start": lag[0][1] if lag else None, "lag_end": lag[-1][1] if lag else None,
        "lag_max": max((v for _, v in lag), default=None), "lag_slope_per_s": _r(_slope(lag), 2),
        "archive_latency_ms": archive,
        "pit_cpu_pct": _r(samples["cpu_s"] / seconds * 100, 1),
        "pit_threads_max": samples["threads_max"],
        "browsers_cpu_pct": _r(samples["others_cpu_s"]["browsers"] / seconds * 100, 1)
        if samples["others_cpu_s"].get("browsers") is not None else None,
        "load_average": samples["load"],
        "page_ms": _ms(samples["page"]), "api_ms": _ms(samples["api"]),
        "page_samples_ms": [round(v * 1000, 1) for v in samples["page"]],
        "lag_samples": [v for _, v in lag],
        "patches_per_stream_per_s": _r(seen["patches"] / streams / seen["seconds"], 1)
        if mode == "read" and seen.get("patches") is not None and seen.get("seconds") else None,
        "streams_closed_by_board": seen.get("closed_by_server"),
        "streams_refused": seen.get("refused"),
    }


def _window(seconds: float, pid: int, port: int, url: str, published: list[tuple[int, int]],
            others: dict[str, int | None]) -> dict[str, Any]:
    """Sample once a second for ``seconds``: the archive's lag, the pit's threads, two page loads;
    the CPU of the pit and of ``others`` (the browsers' process) over the window."""
    import psycopg

    lag: list[tuple[float, int]] = []
    page: list[float] = []
    api: list[float] = []
    threads = 0
    with psycopg.connect(url, autocommit=True) as db:
        cpu0, t0, wall0 = cpu_seconds(pid) or 0.0, time.monotonic(), time.time()
        others0 = {k: cpu_seconds(p) for k, p in others.items() if p is not None}
        tick = t0
        while True:
            now_ns = time.monotonic_ns()
            (archived,), = db.execute("SELECT count(*) FROM events").fetchall()
            sent = _published_at(published, now_ns)
            lag.append((now_ns / 1e9 - t0, sent - archived))
            threads = max(threads, _threads(pid))
            page.append(_get(port, "/"))
            api.append(_get(port, "/api/tables"))
            tick += 1.0
            if tick > t0 + seconds:
                break
            time.sleep(max(0.0, tick - time.monotonic()))
        t1, wall1 = time.monotonic(), time.time()
        cpu1 = cpu_seconds(pid) or 0.0
        others_cpu = {k: (cpu_seconds(others[k]) or 0.0) - (v or 0.0) for k, v in others0.items()}
    return {"lag": lag, "page": page, "api": api, "threads_max": threads, "cpu_s": cpu1 - cpu0,
            "others_cpu_s": others_cpu, "load": round(os.getloadavg()[0], 1),
            "seconds": t1 - t0, "wall_start": wall0, "wall_end": wall1,
            "published": _published_at(published, int(t1 * 1e9)) - _published_at(published, int(t0 * 1e9))}


def _published_at(published: list[tuple[int, int]], at_ns: int) -> int:
    """Events the tables had published at ``at_ns`` (their last report before it)."""
    best = 0
    for t, count in list(published):
        if t <= at_ns:
            best = count
    return best


def _latency(url: str, start: float, end: float) -> dict[str, float | None]:
    """received_at - ts of the events the tables published in the window, in ms."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        row = db.execute(
            "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY d), percentile_cont(0.99) WITHIN GROUP (ORDER BY d), "
            "max(d), count(*) FROM (SELECT extract(epoch FROM received_at - ts) AS d FROM events "
            "WHERE ts BETWEEN to_timestamp(%s) AND to_timestamp(%s)) AS x", (start, end)).fetchone()
    p50, p99, top, count = row
    return {"p50": _in_ms(p50), "p99": _in_ms(p99), "max": _in_ms(top), "events": count}


def _in_ms(seconds: Any) -> float | None:
    return None if seconds is None else round(float(seconds) * 1000, 1)


def _get(port: int, path: str) -> float:
    """Seconds to fetch ``path`` whole on a fresh connection (what a browser opening the page waits)."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        resp.read()
        if resp.status != 200:
            return float("nan")
    except OSError:
        return float("nan")
    finally:
        conn.close()
    return time.perf_counter() - started


def _threads(pid: int) -> int:
    with contextlib.suppress(OSError, ValueError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                return int(line.split()[1])
    return 0


def _slope(points: list[tuple[float, int]]) -> float | None:
    if len(points) < 3:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else None


def _ms(values: list[float]) -> dict[str, float | None]:
    ok = sorted(v for v in values if v == v)
    return {"p50": round(statistics.median(ok) * 1000, 1) if ok else None,
            "max": round(ok[-1] * 1000, 1) if ok else None, "failed": len(values) - len(ok)}


def _r(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _ratio(value: float | None, base: float | None) -> float | None:
    return None if value is None or not base else round(value / base, 2)


# -- output ---------------------------------------------------------------------------

PIT_HEADERS = ("streams", "mode", "lag start/end", "lag slope /s", "archive ms p50/p99/max", "pit CPU %",
               "x none", "threads", "page ms p50/max", "api ms p50/max", "patches/stream/s", "closed",
               "browsers CPU %", "load")


def pit_rows(pit: dict[str, Any]) -> list[tuple[str, ...]]:
    out = []
    for r in pit["runs"]:
        lat, page, api = r["archive_latency_ms"], r["page_ms"], r["api_ms"]
        out.append((str(r["streams"]), r["mode"], f"{r['lag_start']}/{r['lag_end']}", _f(r["lag_slope_per_s"]),
                    f"{_f(lat['p50'])}/{_f(lat['p99'])}/{_f(lat['max'])}", _f(r["pit_cpu_pct"]),
                    _f(r["cpu_to_no_streams"]), str(r["pit_threads_max"]), f"{_f(page['p50'])}/{_f(page['max'])}",
                    f"{_f(api['p50'])}/{_f(api['max'])}", _f(r["patches_per_stream_per_s"]),
                    _f(r["streams_closed_by_board"]), _f(r.get("browsers_cpu_pct")), _f(r.get("load_average"))))
    return out


def pit_text(pit: dict[str, Any]) -> str:
    body = pit_rows(pit)
    widths = [max(len(row[i]) for row in [PIT_HEADERS, *body]) for i in range(len(PIT_HEADERS))]
    fmt = "  ".join(f"{{:>{w}}}" for w in widths)
    head = (f"pit: {pit['tables']} tables publishing {pit['rate']:g} events/s together, {pit['seconds']:g} s "
            f"windows after {pit['warmup']:g} s" + (f"; tablectl pit from {pit['pit_source']}" if pit["pit_source"] else ""))
    return "\n".join([head, fmt.format(*PIT_HEADERS), "  ".join("-" * w for w in widths), *(fmt.format(*r) for r in body)])


def pit_markdown(pit: dict[str, Any]) -> str:
    lines = ["| " + " | ".join(PIT_HEADERS) + " |", "|" + "|".join("---" for _ in PIT_HEADERS) + "|"]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in pit_rows(pit)])


def _f(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}" if abs(value) < 10 else f"{value:.1f}" if abs(value) < 1000 else f"{value:,.0f}"
    return str(value)
