"""`tablectl bench --only floor`: the pit at a floor's scale (issue 21.5).

N tables' event streams go into one archiving pit service, then into two sharing the subscription
(the group, as docs/pit.md runs them), with PostgreSQL, through a Mosquitto with a site's limits
(config/mosquitto.conf: 100 messages in flight to a client, 100,000 queued), and a board-only instance (``--http``
without ``--db``, as docs/pit.md recommends running the board) whose page a browser reads.

The tables are the pit part's (hw_sim.bench.pit_workers, ``pit-tables``): a real simulated table's
journaled events, replayed as N tables with their own ids and seqs, at a set rate, answering
``cmd/replay`` from what they published. Two kinds of run, each for 1 and then 2 services:

- **a floor at a human pace**: ``--floor-tables`` (16, 64, 256) tables, each dealing a round every
  ``--floor-round-seconds`` (60: a baccarat round a minute), so the rate is N x the recording's
  events per round / 60;
- **saturation**: ``--floor-rate-tables`` tables publishing ``--floor-rates`` events a second
  together, rising until the archive falls behind (the archive's lag grows by more than 5 % of the
  rate a second). The last rate kept up with, and what was archived a second at the first one not,
  are the services' saturation.

Each run has its own database, topic prefix and processes. Figures over a window of
``--floor-seconds`` after ``--floor-warmup``, then the tables stop and the run waits up to
``--floor-settle`` seconds for the archive to hold everything:

- events published and archived a second in the window;
- **publish to commit**: the archive's ``received_at`` (PostgreSQL's clock at the commit) less the
  event's ``ts`` (the publisher's clock), p50 and p99 of the window's events;
- **publish to page**: a browser on the board's event stream; each board patch that moves a
  table's last seq on, less that event's ``ts``, p50 and p99;
- the archiving services' CPU per archived event (µs) and as a share of a core; the board's CPU;
- at the end: events **lost** (published, not in the archive), **duplicated** (rows for one seq:
  the archive's key forbids them, counted anyway) and **gaps left** open, with the gaps the
  services opened and filled and the replays the tables answered.

The baseline of each table count is its 1-service run, measured in the same bench; nothing here
asserts a time (``--smoke`` only checks that every figure is produced).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import statistics
import threading
import time
from typing import Any

from hw_sim.bench.pit import _latency, _published_at, _slope
from hw_sim.bench.proc import BenchError, Worker, cpu_seconds, python_argv
from hw_sim.broker import free_port

SMOKE = {"floor_tables": "4", "floor_rates": "200", "floor_rate_tables": 4, "floor_seconds": 3.0,
         "floor_warmup": 1.0, "floor_settle": 20.0, "floor_services": "1,2"}
SATURATED = 0.05
"""A run whose archive lag grows by more than this share of the rate a second has fallen behind."""


SITE_BROKER = "max_inflight_messages 100\n"
"""What config/mosquitto.conf sets beyond the bench broker's own settings (hw_sim.broker): with
Mosquitto's default of 20 unacknowledged messages a client, a pit service (which acknowledges an
event once committed) is held to 20 events a commit, and that, not the service, was the limit."""


def run_floor(bench: Any) -> dict[str, Any]:
    """The floor part, on a broker of its own with a site's limits (config/mosquitto.conf)."""
    from hw_sim.broker import LocalBroker

    broker = LocalBroker(prefer="mosquitto", settings=SITE_BROKER)
    try:
        broker.start()
    except RuntimeError as exc:
        raise BenchError(f"floor: needs Mosquitto: {exc}") from exc
    try:
        return _floor(bench, broker)
    finally:
        broker.stop()


def _floor(bench: Any, site: Any) -> dict[str, Any]:
    a = bench.args
    tables = _counts("--floor-tables", a.floor_tables)
    rates = _counts("--floor-rates", a.floor_rates)
    services = _counts("--floor-services", a.floor_services)
    from hw_sim.bench.pit import _record, postgres

    runs: list[dict[str, Any]] = []
    with postgres(bench, "floor") as admin:
        recording = _record(bench, a.pit_record)
        per_round = _events_per_round(recording["events"])
        rec_file = bench.tmp / "floor-recording.json"
        rec_file.write_text(json.dumps(recording))
        ids = iter(range(1, 10_000))
        for n_services in services:
            for n in tables:
                rate = n * per_round / a.floor_round_seconds
                _say(bench, f"bench: floor: {n} tables at a human pace ({rate:.1f} events/s), {n_services} service(s) ...")
                runs.append(_one(bench, site, admin, rec_file, next(ids), "floor", n, rate, n_services))
            for rate in rates:
                _say(bench, f"bench: floor: {a.floor_rate_tables} tables at {rate} events/s, {n_services} service(s) ...")
                run = _one(bench, site, admin, rec_file, next(ids), "rate", a.floor_rate_tables, float(rate), n_services)
                runs.append(run)
                if run["saturated"]:
                    break
    for r in runs:
        base = next((b for b in runs if b["kind"] == r["kind"] and b["tables"] == r["tables"]
                     and b["rate"] == r["rate"] and b["services"] == 1), None)
        r["cpu_per_event_to_1_service"] = _ratio(r["cpu_us_per_event"], base and base["cpu_us_per_event"])
    return {"events_per_round": round(per_round, 1), "round_seconds": a.floor_round_seconds,
            "seconds": a.floor_seconds, "warmup": a.floor_warmup, "runs": runs,
            "saturation": {str(s): _saturation([r for r in runs if r["kind"] == "rate" and r["services"] == s])
                           for s in services}}


class FloorArgsError(ValueError):
    """An option of the floor part that cannot be used: one line, exit 2."""


def check_args(args: Any) -> None:
    """The floor part's options, checked before the bench starts anything (FloorArgsError)."""
    for option in ("floor_tables", "floor_rates", "floor_services"):
        _counts("--" + option.replace("_", "-"), getattr(args, option))
    if args.floor_rate_tables < 1:
        raise FloorArgsError(f"--floor-rate-tables: a whole number above 0, not {args.floor_rate_tables}")
    for option in ("floor_round_seconds", "floor_seconds", "floor_settle"):
        value = getattr(args, option)
        if not value > 0:
            raise FloorArgsError(f"--{option.replace('_', '-')}: seconds above 0, not {value:g}")
    if args.floor_warmup < 0:
        raise FloorArgsError(f"--floor-warmup: seconds, 0 or more, not {args.floor_warmup:g}")


def _counts(option: str, text: str) -> list[int]:
    try:
        out = [int(n) for n in str(text).split(",") if n.strip()]
    except ValueError:
        out = []
    if not out or min(out) < 1:
        raise FloorArgsError(f"{option}: a comma list of whole numbers above 0, not {text!r}")
    return out


def _events_per_round(events: list[dict]) -> float:
    rounds = {e["round"] for e in events if isinstance(e.get("round"), int)}
    return len(events) / max(1, len(rounds))


def _saturation(runs: list[dict[str, Any]]) -> dict[str, Any]:
    kept = [r for r in runs if not r["saturated"]]
    fell = next((r for r in runs if r["saturated"]), None)
    return {"kept_up_to": max((r["rate"] for r in kept), default=None),
            "archived_per_s_when_behind": fell["archived_per_s"] if fell else None,
            "behind_at": fell["rate"] if fell else None}


def _say(bench: Any, text: str) -> None:
    from hw_sim.bench.harness import _say as say

    say(bench.args, text)


# -- one run ---------------------------------------------------------------------------

def _one(bench: Any, site: Any, admin: str, rec_file: Any, n: int, kind: str, tables: int, rate: float,
         n_services: int) -> dict[str, Any]:
    import psycopg

    a = bench.args
    dbname = f"floorbench_{os.getpid()}_{n}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')
    url = admin.rsplit("/", 1)[0] + "/" + dbname
    prefix, port, broker = f"floor{n}", free_port(), site.address
    pits = [bench.worker(f"floor-{n}-pit-{i}", python_argv(
        "controller.cli", "pit", "--broker", broker, "--db", url, "--prefix", prefix,
        "--client-id", f"floor-{n}-{i}", "--status-interval", "1"), cwd=bench.tmp) for i in range(1, n_services + 1)]
    board = bench.worker(f"floor-{n}-board", python_argv(
        "controller.cli", "pit", "--broker", broker, "--http", f"127.0.0.1:{port}", "--prefix", prefix,
        "--client-id", f"floor-{n}-board"), cwd=bench.tmp)
    published: list[tuple[int, int]] = [(time.monotonic_ns(), 0)]
    answered: list[int] = []

    def on_tables(_now: int, line: str) -> None:
        parts = line.split()
        if len(parts) == 3 and parts[0] == "S":
            published.append((int(parts[1]), int(parts[2])))
        elif len(parts) == 4 and parts[0] == "R":
            answered[:] = [int(p) for p in parts[1:]]

    worker: Worker | None = None
    probe: _PageProbe | None = None
    try:
        for p in (*pits, board):
            p.expect("tablectl pit:", 60)
        worker = bench.worker(f"floor-{n}-tables", python_argv(
            "hw_sim.bench", "worker", "pit-tables", "--name", f"ft{n}", "--host", site.host,
            "--port", str(site.port), "--prefix", prefix, "--recording", str(rec_file),
            "--tables", str(tables), "--rate", str(rate)), on_line=on_tables)
        worker.expect("ready", 60)
        probe = _PageProbe(port)
        time.sleep(a.floor_warmup)
        window = _window(a.floor_seconds, [p.pid for p in pits], board.pid, url, published, probe)
        worker.send("halt")
        worker.expect("S ", 30)
        total = published[-1][1]
        settled = _settle(url, total, a.floor_settle)
        worker.stop(15)
        worker = None
        probe.close()
        end = _end(url, f"ft{n}", tables, total)
        commit = _latency(url, window["wall_start"], window["wall_end"])
        for p in pits:   # each publishes its last counters, retained, as it stops
            _stopped(bench, n, p)
        counters = _counters(bench, site, prefix, n_services)
    finally:
        if probe is not None:
            probe.close()
        if worker is not None:
            worker.stop(10)
        for p in (*pits, board):
            _stopped(bench, n, p)
    seconds = window["seconds"]
    archived = window["archived"]
    slope = window["lag_slope"]
    return {
        "kind": kind, "tables": tables, "rate": round(rate, 1), "services": n_services,
        "seconds": round(seconds, 1), "published_per_s": _r(window["published"] / seconds, 1),
        "archived_per_s": _r(archived / seconds, 1), "lag_slope_per_s": _r(slope, 2),
        "saturated": slope is not None and slope > SATURATED * rate,
        "commit_ms": commit, "page_ms": window["page_ms"],
        "cpu_us_per_event": _r(window["cpu_s"] / archived * 1e6, 1) if archived else None,
        "pit_cpu_pct": _r(window["cpu_s"] / seconds * 100, 1),
        "board_cpu_pct": _r(window["board_cpu_s"] / seconds * 100, 1),
        "load_average": window["load"],
        "published": total, "settled_s": settled, **end,
        "gaps_opened": counters.get("gaps_opened"), "gaps_filled": counters.get("gaps_filled"),
        "events_duplicate_received": counters.get("events_duplicate"),
        "replay_requests": answered[0] if answered else None,
        "replayed_events": answered[1] if answered else None,
    }


def _stopped(bench: Any, n: int, pit: Worker) -> None:
    if getattr(pit, "floor_stopped", False):
        return
    pit.floor_stopped = True   # type: ignore[attr-defined]
    rc = pit.stop(40)
    if rc != 0:
        bench.notes.append(f"floor: run {n}: tablectl pit ({pit.name}) exited with {rc}{pit.tail(3)}")


class _PageProbe:
    """A browser on the board's event stream (``GET /events``): for each patch that moves a table's
    last seq on, the wall clock at its arrival less that event's ``ts``."""

    def __init__(self, port: int) -> None:
        self.samples: list[tuple[float, float]] = []
        self._head: dict[str, int] = {}
        self._conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self._conn.request("GET", "/events", headers={"Accept": "text/event-stream"})
        self._resp = self._conn.getresponse()
        if self._resp.status != 200:
            raise BenchError(f"floor: the board's /events answered {self._resp.status}")
        self._thread = threading.Thread(target=self._read, name="page-probe", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        event = ""
        with contextlib.suppress(OSError, ValueError, AttributeError):
            for raw in self._resp:
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:") and event == "patch":
                    self._patch(line[5:], time.time())

    def _patch(self, text: str, now: float) -> None:
        with contextlib.suppress(ValueError):
            body = json.loads(text)
            tile = body.get("tile") if isinstance(body, dict) else None
            if not isinstance(tile, dict):
                return
            seq, ts = tile.get("last_seq"), tile.get("last_ts")
            if isinstance(seq, int) and isinstance(ts, int | float) and seq > self._head.get(tile.get("table"), 0):
                self._head[tile["table"]] = seq
                self.samples.append((now, now - ts))

    def close(self) -> None:
        sock = self._conn.sock
        if sock is not None:   # ends the reader thread's read at once
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self._conn.close()


def _window(seconds: float, pids: list[int], board: int, url: str, published: list[tuple[int, int]],
            probe: _PageProbe) -> dict[str, Any]:
    """Sample the archive's lag once a second for ``seconds``; the CPU of the services and board."""
    import psycopg

    lag: list[tuple[float, int]] = []
    with psycopg.connect(url, autocommit=True) as db:
        def archived() -> int:
            (count,), = db.execute("SELECT count(*) FROM events").fetchall()
            return int(count)
        cpu0 = sum(cpu_seconds(p) or 0.0 for p in pids)
        bcpu0 = cpu_seconds(board) or 0.0
        t0, wall0 = time.monotonic(), time.time()
        first = archived()
        tick = t0
        while True:
            now_ns = time.monotonic_ns()
            lag.append((now_ns / 1e9 - t0, _published_at(published, now_ns) - archived()))
            tick += 1.0
            if tick > t0 + seconds:
                break
            time.sleep(max(0.0, tick - time.monotonic()))
        t1, wall1 = time.monotonic(), time.time()
        cpu1 = sum(cpu_seconds(p) or 0.0 for p in pids)
        bcpu1 = cpu_seconds(board) or 0.0
        last = archived()
    page = sorted(d for at, d in probe.samples if wall0 <= at <= wall1)
    return {"seconds": t1 - t0, "wall_start": wall0, "wall_end": wall1, "archived": last - first,
            "published": _published_at(published, int(t1 * 1e9)) - _published_at(published, int(t0 * 1e9)),
            "lag_slope": _slope(lag), "cpu_s": cpu1 - cpu0, "board_cpu_s": bcpu1 - bcpu0,
            "load": round(os.getloadavg()[0], 1), "page_ms": _quantiles(page)}


def _settle(url: str, total: int, limit: float) -> float | None:
    """Seconds until the archive holds ``total`` events (None: not within ``limit``). A bench's
    wait outside anything measured: it reads the count every 0.2 s."""
    import psycopg

    started = time.monotonic()
    with psycopg.connect(url, autocommit=True) as db:
        while time.monotonic() - started < limit:
            (count,), = db.execute("SELECT count(*) FROM events").fetchall()
            if count >= total:
                return round(time.monotonic() - started, 1)
            time.sleep(0.2)
    return None


def _end(url: str, name: str, tables: int, total: int) -> dict[str, Any]:
    """Lost, duplicated and gaps left, table by table: table i (from 0) published
    ``total // tables + (i < total % tables)`` events (hw_sim.bench.pit_workers)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        rows = {t: (c, d) for t, c, d in db.execute(
            "SELECT table_id, count(*), count(DISTINCT seq) FROM events GROUP BY table_id").fetchall()}
        (open_gaps, unfillable), = db.execute(
            "SELECT count(*) FILTER (WHERE status = 'open'), count(*) FILTER (WHERE status = 'unfillable') "
            "FROM gaps").fetchall()
    lost = dup = 0
    for i in range(tables):
        sent = total // tables + (1 if i < total % tables else 0)
        count, distinct = rows.get(f"{name}-{i + 1:02d}", (0, 0))
        lost += max(0, sent - distinct)
        dup += count - distinct
    return {"lost": lost, "duplicates": dup, "gaps_left": int(open_gaps), "gaps_unfillable": int(unfillable)}


def _counters(bench: Any, site: Any, prefix: str, services: int) -> dict[str, int]:
    """The archiving services' counters summed, from the retained status each left as it stopped
    (``<prefix>/_pit/+/status``)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    got: dict[str, dict] = {}
    done = threading.Event()

    def on_message(_c: Any, _u: Any, msg: mqtt.MQTTMessage) -> None:
        with contextlib.suppress(ValueError):
            body = json.loads(msg.payload)
            if isinstance(body, dict) and body.get("archive"):
                got[msg.topic] = body.get("counters") or {}
                if len(got) >= services:
                    done.set()

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-floor-counters-{prefix}")
    client.on_message = on_message
    client.on_connect = lambda c, *a: c.subscribe(f"{prefix}/_pit/+/status", qos=1)
    client.connect(site.host, site.port)
    client.loop_start()
    try:
        if not done.wait(15):
            bench.notes.append(f"floor: {prefix}: {len(got)} of {services} services' last status found")
    finally:
        client.loop_stop()
        client.disconnect()
    out: dict[str, int] = {}
    for counters in got.values():
        for key, value in counters.items():
            if isinstance(value, int):
                out[key] = out.get(key, 0) + value
    return out


def _quantiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p99": None, "samples": 0}
    p99 = values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]
    return {"p50": round(statistics.median(values) * 1000, 1), "p99": round(p99 * 1000, 1), "samples": len(values)}


def _r(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _ratio(value: float | None, base: float | None) -> float | None:
    return None if value is None or not base else round(value / base, 2)


# -- output ---------------------------------------------------------------------------

HEADERS = ("run", "tables", "events/s", "services", "archived/s", "lag slope /s", "commit ms p50/p99", "page ms p50/p99",
           "µs CPU/event", "x 1 service", "pit CPU %", "board CPU %", "lost", "dup", "gaps left", "gaps filled",
           "load")


def floor_rows(floor: dict[str, Any]) -> list[tuple[str, ...]]:
    out = []
    for r in floor["runs"]:
        c, p = r["commit_ms"], r["page_ms"]
        out.append(("human pace" if r["kind"] == "floor" else "rate", str(r["tables"]), _f(r["rate"]),
                    str(r["services"]),
                    _f(r["archived_per_s"]), _f(r["lag_slope_per_s"]), f"{_f(c['p50'])}/{_f(c['p99'])}",
                    f"{_f(p['p50'])}/{_f(p['p99'])}", _f(r["cpu_us_per_event"]), _f(r["cpu_per_event_to_1_service"]),
                    _f(r["pit_cpu_pct"]), _f(r["board_cpu_pct"]), _f(r["lost"]), _f(r["duplicates"]),
                    _f(r["gaps_left"]), f"{_f(r['gaps_filled'])}/{_f(r['gaps_opened'])}", _f(r["load_average"])))
    return out


def _saturation_line(floor: dict[str, Any]) -> str:
    parts = []
    for services, s in floor["saturation"].items():
        if s["behind_at"] is None:
            parts.append(f"{services} service(s) kept up with every rate tried (to {_f(s['kept_up_to'])}/s)")
        else:
            parts.append(f"{services} service(s) kept up to {_f(s['kept_up_to'])}/s, fell behind at "
                         f"{_f(s['behind_at'])}/s archiving {_f(s['archived_per_s_when_behind'])}/s")
    return "saturation: " + "; ".join(parts)


def floor_text(floor: dict[str, Any]) -> str:
    body = floor_rows(floor)
    widths = [max(len(row[i]) for row in [HEADERS, *body]) for i in range(len(HEADERS))]
    fmt = "  ".join(f"{{:>{w}}}" for w in widths)
    head = (f"floor: tables at a round every {floor['round_seconds']:g} s ({floor['events_per_round']:g} events a "
            f"round), {floor['seconds']:g} s windows after {floor['warmup']:g} s")
    return "\n".join([head, fmt.format(*HEADERS), "  ".join("-" * w for w in widths),
                      *(fmt.format(*r) for r in body), _saturation_line(floor)])


def floor_markdown(floor: dict[str, Any]) -> str:
    lines = ["| " + " | ".join(HEADERS) + " |", "|" + "|".join("---" for _ in HEADERS) + "|"]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in floor_rows(floor)] + ["", _saturation_line(floor)])


def _f(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}" if abs(value) < 10 else f"{value:.1f}" if abs(value) < 1000 else f"{value:,.0f}"
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)
