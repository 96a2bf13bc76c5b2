"""Test support for the pit service: the archive read from the test's side, a stand-in table that
publishes what a test tells it to, and the table's journal read as another process reads it.

Waiting on the archive is waiting on PostgreSQL's NOTIFY (controller.pit.archive sends one at
each commit that stored or changed something): a condition with a deadline, never a poll.
"""

from __future__ import annotations

import contextlib
import json
import queue
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import psycopg
from mqtt_support import WAIT
from paho.mqtt.enums import CallbackAPIVersion

from controller.pit.archive import NOTIFY_CHANNEL
from controller.pit.service import Tuning
from controller.shared.schemas import problems, validator

FAST = Tuning(grace=0.3, status_interval=0.1, reply_timeout=3.0, replay_timeout=3.0, retry_delays=(0.3, 0.6, 1.0),
              db_retry_delays=(0.2, 0.5), vouch_wait=1.0, session_expiry=600, claim=3.0)
"""Timings for tests: a gap is asked for 0.3 s after it shows, a silent table asked again within a second."""

TABLECTL = [sys.executable, "-m", "controller.cli"]

ARCHIVE_WAIT = 60.0
"""Seconds a test waits for the archive to reach what it expects: generous for a loaded machine."""


class ArchiveView:
    """The archive database as a test reads it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: psycopg.Connection | None = None

    def _db(self) -> psycopg.Connection:
        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(self.url, autocommit=True)
            self._conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
        return self._conn

    def query(self, sql: str, *params: Any) -> list[tuple]:
        try:
            return self._db().execute(sql, params or None).fetchall()
        except psycopg.OperationalError:
            self.close()
            raise

    def seqs(self, table: str) -> list[int]:
        return [r[0] for r in self.query("SELECT seq FROM events WHERE table_id = %s ORDER BY seq", table)]

    def envelopes(self, table: str) -> dict[int, dict]:
        return dict(self.query("SELECT seq, envelope FROM events WHERE table_id = %s ORDER BY seq", table))

    def gaps(self, table: str | None = None, status: str | None = None) -> list[tuple]:
        """(table, first, last, status, reason, asked) rows."""
        rows = self.query("SELECT table_id, first_seq, last_seq, status, reason, asked FROM gaps ORDER BY table_id, "
                          "first_seq")
        return [r for r in rows if (table is None or r[0] == table) and (status is None or r[3] == status)]

    def rejects(self) -> list[tuple]:
        """(topic, table, reason, payload) rows, oldest first."""
        return [(t, tb, r, bytes(p) if p is not None else None) for t, tb, r, p in self.query(
            "SELECT topic, table_id, reason, payload FROM rejects ORDER BY id")]

    def complete(self, table: str, upto: int, *, later_gaps: bool = False) -> bool:
        """Every seq 1..upto archived, and no open gap of the table -- or, with ``later_gaps``, none
        that starts at or below ``upto``: while the table goes on publishing, a gap past ``upto`` may
        open and close at any moment (events delayed past the pit's grace on a loaded machine)."""
        (count,), = self.query("SELECT count(*) FROM events WHERE table_id = %s AND seq <= %s", table, upto)
        return count == upto and not [g for g in self.gaps(table, "open") if not later_gaps or g[1] <= upto]

    def wait(self, predicate: Callable[[], object], what: str, timeout: float = ARCHIVE_WAIT) -> Any:
        """Until ``predicate()`` is true, woken by the archive's NOTIFYs; fails naming ``what``."""
        end = time.monotonic() + timeout
        while True:
            try:
                found = predicate()
                if found:
                    return found
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
                for _ in self._db().notifies(timeout=min(left, 5.0), stop_after=1):
                    pass
            except psycopg.OperationalError:  # the test stopped the server: wait on the next connection
                self.close()
                if time.monotonic() > end:
                    raise AssertionError(f"timed out after {timeout} s waiting for {what} (database away)") from None
                threading.Event().wait(0.2)

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            self._conn = None


def journal_rows(path: Path) -> list[tuple[int, dict, int]]:
    """(seq, envelope, delivered) of every event the table journaled, read as another process would."""
    db = sqlite3.connect(path)
    try:
        return [(s, json.loads(e), d) for s, e, d in
                db.execute("SELECT seq, envelope, delivered FROM events ORDER BY seq").fetchall()]
    finally:
        db.close()


def caught_up(view: ArchiveView, table: str, journal: Path, timeout: float = ARCHIVE_WAIT) -> None:
    """Wait until the archive holds every seq journaled so far, with no open gap: before a table
    is stopped, so that a gap found late can still be asked of it (a stopped table answers nothing)."""
    top = journal_rows(journal)[-1][0]
    view.wait(lambda: view.complete(table, top), f"seqs 1..{top} of {table} archived before the table stops", timeout)


def assert_archive_is_journal(view: ArchiveView, table: str, journal: Path, timeout: float = ARCHIVE_WAIT) -> int:
    """Wait until the archive holds every seq the table journaled and has no open gap; then each
    (table, seq) is there once with the journal's envelope. The table must be stopped. The count."""
    rows = journal_rows(journal)
    top = rows[-1][0]
    assert [s for s, *_ in rows] == list(range(1, top + 1)), "the journal itself is whole"
    try:
        view.wait(lambda: view.complete(table, top), f"seqs 1..{top} of {table} archived with no open gap", timeout)
    except AssertionError as exc:
        have = set(view.seqs(table))
        missing = [s for s in range(1, top + 1) if s not in have]
        raise AssertionError(f"{exc}; missing {len(missing)}: {missing[:20]}; gaps {view.gaps(table)[:10]}; "
                             f"archived_to {view.query('SELECT archived_to FROM tables WHERE table_id = %s', table)}; "
                             f"undelivered in the journal {[s for s, _, d in rows if not d][:20]}") from None
    archived = view.envelopes(table)
    assert sorted(archived) == list(range(1, top + 1)), f"archived seqs beyond the journal: {sorted(archived)[-5:]}"
    for seq, env, _ in rows:
        assert archived[seq] == env, f"seq {seq}: the archive's envelope differs from the journal's"
    count = view.query("SELECT count(*), count(DISTINCT seq) FROM events WHERE table_id = %s", table)[0]
    assert count == (top, top)
    return top


class PitProcess:
    """`tablectl pit` as a subprocess: stdout lines read on a thread, stderr to a file."""

    def __init__(self, broker, db_url: str, log: Path, *args: str) -> None:
        self.log = log
        self.proc = subprocess.Popen(
            [*TABLECTL, "pit", "--broker", f"{broker.host}:{broker.port}", "--db", db_url, "--grace", "0.3",
             "--status-interval", "0.2", *args], stdout=subprocess.PIPE, stderr=log.open("w"), text=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def line(self, timeout: float = 30) -> str:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"tablectl pit printed nothing within {timeout} s; stderr: "
                                 f"{self.log.read_text()[-2000:]}") from None
        assert line is not None, f"tablectl pit exited ({self.proc.wait()}); stderr: {self.log.read_text()[-2000:]}"
        return line

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


class FakeTable:
    """A stand-in table on the broker: publishes its status, events and state as a test says, and
    answers ``cmd/replay`` from what it published (or refuses, as told)."""

    def __init__(self, host: str, port: int, table: str = "fake-01", prefix: str = "casino",
                 game: str = "baccarat", password: str | None = None) -> None:
        self.table, self.prefix, self.game = table, prefix, game
        self.base = f"{prefix}/{table}"
        self.published: dict[int, bytes] = {}
        self.requests: list[dict] = []
        self.refuse: str | None = None
        """When set, every cmd/replay is refused with this error."""
        self.replay_skips: set[int] = set()
        """Seqs a replay leaves out (as a damaged journal row is)."""
        self.unanswered = 0
        """The next this many cmd/replay requests get no answer (a reply slower than the pit's
        reply timeout, made certain): the pit asks again."""
        self.cond = threading.Condition()
        subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"fake-{table}", protocol=mqtt.MQTTv5)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(f"{self.base}/cmd/replay", qos=1)
        self.client.on_subscribe = lambda *a: subscribed.set()
        self.client.on_message = self._on_command
        if password is not None:  # logged in as its own user, as a table at a site is
            self.client.username_pw_set(table, password)
        self.client.connect(host, port)
        self.client.loop_start()
        assert subscribed.wait(WAIT), "the fake table could not subscribe"

    def status(self, birth: int = 1, next_seq: int = 1, online: bool = True, **extra: Any) -> None:
        body = {"online": online, "table": self.table, "birth": birth, **extra}
        if online:
            body |= {"game": self.game, "version": "test", "devices": {}, "next_seq": next_seq, "ts": time.time()}
        self.send("status", body, retain=True)

    def state(self, seq: int) -> None:
        self.send("state", {"table": self.table, "seq": seq, "ts": time.time(), "state": "closed", "round": None},
                  retain=True)

    def envelope(self, seq: int, kind: str = "table", data: dict | None = None) -> dict:
        return {"seq": seq, "ts": 1_700_000_000.0 + seq, "table": self.table, "round": None, "kind": kind,
                "data": data if data is not None else {"status": "open" if seq % 2 else "closed"}}

    def event(self, seq: int, kind: str = "table", data: dict | None = None, *, publish: bool = True) -> dict:
        """Event ``seq`` made (and published unless told not to: a broker that lost it)."""
        env = self.envelope(seq, kind, data)
        payload = json.dumps(env).encode()
        with self.cond:
            self.published[seq] = payload
        if publish:
            self.raw(f"{self.base}/event/{kind}", payload)
        return env

    def send(self, what: str, body: dict, retain: bool = False) -> None:
        self.raw(f"{self.base}/{what}", json.dumps(body).encode(), retain=retain)

    def raw(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(WAIT)

    def _on_command(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            req = json.loads(msg.payload)
        except ValueError:
            return  # not a command: a real table refuses it (controller.table.commands), this one ignores it
        with self.cond:
            self.requests.append(req)
            self.cond.notify_all()
            held = dict(self.published)
            if self.unanswered > 0:
                self.unanswered -= 1
                return
        reply: dict[str, Any] = {"id": req.get("id") if isinstance(req, dict) else None, "command": "replay"}
        wrong = problems(validator("command#/$defs/replay"), req, quote=False) if isinstance(req, dict) else ["not a table"]
        if wrong:  # as a real table (controller.table.commands): the service's requests must be ones it takes
            reply |= {"ok": False, "error": f"bad replay command: {'; '.join(wrong)}"}
        elif self.refuse is not None:
            reply |= {"ok": False, "error": self.refuse}
        else:
            seqs = [s for s in range(req["from"], req["to"] + 1) if s in held and s not in self.replay_skips]
            reply |= {"ok": True, "data": {"from": req["from"], "to": req["to"], "count": len(seqs),
                                           "queued_before": 0}}
        client.publish(f"{self.base}/cmd/replay/reply", json.dumps(reply), qos=1)
        if reply["ok"]:
            for seq in seqs:
                kind = json.loads(held[seq])["kind"]
                client.publish(f"{self.base}/event/{kind}", held[seq], qos=1)

    def wait_requests(self, n: int, timeout: float = WAIT) -> list[dict]:
        end = time.monotonic() + timeout
        with self.cond:
            while len(self.requests) < n:
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.requests)} cmd/replay requests, not {n}, within {timeout} s")
                self.cond.wait(left)
            return list(self.requests)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
