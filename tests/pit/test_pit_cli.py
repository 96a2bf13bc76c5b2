"""`tablectl pit` as an operator runs it: a real process, a real broker and database; killed with
SIGKILL mid-run and started again; stopped with SIGTERM; and every way it can fail to start,
each one line and a non-zero exit."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import threading
import urllib.request

import psycopg
import pytest
from archive_support import TABLECTL, PitProcess, assert_archive_is_journal, caught_up
from mqtt_support import WAIT, Subscriber
from sim_table import SimTable

from controller.pit.archive import Archive, migrations

TABLE = "bac-sim-01"


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([*TABLECTL, "pit", *args], capture_output=True, text=True, timeout=timeout)


def _one_line(proc: subprocess.CompletedProcess, code: int, words: str) -> None:
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tablectl pit: ") and words in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


def test_sigkill_and_restart_mid_run_loses_nothing(broker, pg_url, archive_view, tmp_path):
    table = SimTable(broker, tmp_path / "t", seed=71)
    journaled = threading.Semaphore(0)
    table.controller.table.listeners.append(lambda event: journaled.release())
    pit = PitProcess(broker, pg_url, tmp_path / "pit1.log", "--client-id", "pit-kill")
    second: PitProcess | None = None
    try:
        assert pit.line().startswith("tablectl pit: casino/+ on ")
        table.start()
        table.wait_for(lambda events: sum(e["kind"] == "result" for e in events) >= 2, what="2 results")
        pit.proc.send_signal(signal.SIGKILL)
        assert pit.proc.wait(10) == -signal.SIGKILL
        for _ in range(40):  # the table deals on while no pit service listens
            assert journaled.acquire(timeout=WAIT)
        second = PitProcess(broker, pg_url, tmp_path / "pit2.log", "--client-id", "pit-kill")
        assert second.line().startswith("tablectl pit: ")
        done = len(table.events("result")) + 2
        table.wait_for(lambda events: sum(e["kind"] == "result" for e in events) >= done, what="2 more results")
        table.dealer.paused.set()
        caught_up(archive_view, TABLE, table.cfg.journal.path)
        table.stop()
        top = assert_archive_is_journal(archive_view, TABLE, table.cfg.journal.path)
        second.proc.send_signal(signal.SIGTERM)
        assert second.proc.wait(30) == 0
        summary = second.line()
        assert summary.startswith("tablectl pit: stopped; ") and "events archived" in summary, summary
        assert top > 100
    finally:
        table.dealer.paused.set()
        table.stop()
        pit.close()
        if second is not None:
            second.close()


def test_sigterm_stops_it_cleanly_and_it_says_offline(broker, pg_url, tmp_path):
    watcher = Subscriber(broker.host, broker.port, "casino/_pit/+/status")
    pit = PitProcess(broker, pg_url, tmp_path / "pit.log", "--client-id", "pit-term")
    try:
        first = pit.line()
        assert "archiving into " in first and f"(schema version {len(migrations())}, migrated now from 0; group tablectl-pit)" in first
        assert "client id pit-term" in first and "casino/_pit/pit-term/status" in first
        assert watcher.wait_for(lambda m: m.json().get("online") is True).topic == "casino/_pit/pit-term/status"
        pit.proc.send_signal(signal.SIGTERM)
        assert pit.proc.wait(30) == 0
        assert pit.line().startswith("tablectl pit: stopped; 0 events archived")
        assert watcher.wait_for(lambda m: m.json().get("online") is False).json()["client_id"] == "pit-term"
        assert "Traceback" not in pit.log.read_text()
    finally:
        watcher.close()
        pit.close()


def test_a_wrong_db_url_is_one_line():
    _one_line(_run("--db", "nonsense"), 2, "--db: not a PostgreSQL URL")


def test_a_database_that_is_not_there_is_one_line(postgres):
    _one_line(_run("--broker", "127.0.0.1:1", "--db", postgres.url("no_such_db")), 1,
              "cannot connect to the archive database postgres@127.0.0.1")


def test_an_unreachable_broker_is_one_line(pg_url):
    _one_line(_run("--broker", "127.0.0.1:1", "--db", pg_url), 1, "cannot reach the broker at 127.0.0.1:1: connection")


def test_a_newer_schema_is_one_line(pg_url):
    archive = Archive(pg_url)
    archive.open()
    archive.close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_version (version, name) VALUES (99, '0099_x.sql')")
    _one_line(_run("--broker", "127.0.0.1:1", "--db", pg_url), 2, "newer than this tablectl knows")


@pytest.mark.parametrize(("args", "words"), [
    ([], "nothing to do"),
    (["--db", "postgresql://x@h/d", "--group", "a/b"], "--group 'a/b'"),
    (["--db", "postgresql://x@h/d", "--prefix", "casino/#"], "--prefix"),
    (["--db", "postgresql://x@h/d", "--broker", "host:port"], "port must be a number"),
    (["--db", "postgresql://x@h/d", "--mqtt-password-file", "/nonexistent/pw"], "--mqtt-password-file"),
    (["--db", "postgresql://x@h/d", "--client-id", "a b"], "--client-id"),
    (["--http", "127.0.0.1:8999", "--areas", "/nonexistent/areas.toml"], "--areas /nonexistent/areas.toml: No such file"),
])
def test_bad_options_are_one_line_each(args, words):
    _one_line(_run(*args), 2, words)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_one_process_archives_and_serves_the_board_of_what_it_archives(broker, pg_url, archive_view, tmp_path):
    # The issue's `tablectl pit --broker --http --db`: a simulated table deals; the same process
    # stores every event and its board lists the table, with results, over HTTP.
    port = _free_port()
    table = SimTable(broker, tmp_path / "t", seed=73)
    pit = PitProcess(broker, pg_url, tmp_path / "pit.log", "--client-id", "pit-board", "--http", f"127.0.0.1:{port}")
    try:
        first = pit.line()
        assert f"the pit board on http://127.0.0.1:{port}/" in first and "archiving into " in first
        table.start()
        table.wait_for(lambda events: sum(e["kind"] == "result" for e in events) >= 2, what="2 results")
        table.dealer.paused.set()
        caught_up(archive_view, TABLE, table.cfg.journal.path)
        tiles = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=WAIT).read())
        mine = [t for t in tiles["tables"] if t["table"] == TABLE]
        assert mine and mine[0]["game"] == "baccarat" and len(mine[0]["results"]) >= 2, mine
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=WAIT).read().decode()
        assert "<html" in page.lower()
        pit.proc.send_signal(signal.SIGTERM)
        assert pit.proc.wait(30) == 0
    finally:
        table.dealer.paused.set()
        table.stop()
        pit.close()


def test_the_board_beyond_this_machine_without_a_password_is_one_line(pg_url):
    _one_line(_run("--db", pg_url, "--http", f"0.0.0.0:{_free_port()}"), 2, "without a login: give --users-file FILE or --password-file FILE")


def test_a_board_port_in_use_is_one_line(pg_url):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        _one_line(_run("--db", pg_url, "--http", f"127.0.0.1:{taken.getsockname()[1]}"), 2, "cannot serve the board")


@pytest.mark.parametrize("command", ["pit", "report"])
@pytest.mark.parametrize("url", ["postgresql://pit:s3cret@[host/db", "postgresql://pit:s3cret@127.0.0.1:1/db"])
def test_a_password_in_the_db_url_is_never_printed(command, url):
    """Neither the URL (parsed or not) nor libpq's message quoting it shows the password."""
    proc = subprocess.run([*TABLECTL, command, "--db", url, *(["--broker", "127.0.0.1:1"] if command == "pit" else [])],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "s3cret" not in proc.stdout + proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tablectl {command}: "), proc.stderr
