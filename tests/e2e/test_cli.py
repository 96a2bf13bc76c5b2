"""The `tablectl` commands as a newcomer and an operator run them: real
processes, a real broker, and what comes out on the terminal and the wire."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading

import pytest
from mqtt_support import Subscriber
from sim_table import sim_config_file

from controller.cli import SIM_CONFIG_DIR
from controller.table.config import ConfigError, parse_config

TABLECTL = [sys.executable, "-m", "controller.cli"]


def _start(args: list[str], **kw) -> subprocess.Popen:
    return subprocess.Popen(TABLECTL + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def _lines_until(proc: subprocess.Popen, pattern: str, timeout: float = 60) -> list[str]:
    """Read stdout lines until one matches; fails with what was read on timeout."""
    seen: list[str] = []
    found = threading.Event()

    def reader() -> None:
        for line in proc.stdout:
            seen.append(line)
            if re.search(pattern, line):
                found.set()
                return
    threading.Thread(target=reader, daemon=True).start()
    assert found.wait(timeout), f"no line matching {pattern!r}; got {seen[-20:]}"
    return seen


@pytest.mark.parametrize("broker_kind", ["mosquitto", "embedded"])
def test_demo_prints_broker_first_deals_n_rounds_and_exits_0(broker_kind):
    proc = _start(["demo", "--rounds", "40", "--seed", "3", "--broker", broker_kind])
    first = proc.stdout.readline()
    match = re.match(r"broker 127\.0\.0\.1:(\d+) \(", first)
    assert match, first
    # any other MQTT client can subscribe while it runs
    sub = Subscriber("127.0.0.1", int(match.group(1)), "casino/+/event/result")
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        sub.close()
    assert proc.returncode == 0, err
    results = [line for line in out.splitlines() if re.search(r"->\s+(Player wins|Banker wins|a tie)", line)]
    assert len(results) == 40   # the rounds asked for, and not one of the next
    assert re.search(r"^40 rounds in .* 0 missing, 0 duplicates$", out.splitlines()[-1])
    assert sub.get(5).json()["kind"] == "result"


def test_demo_rejects_bad_arguments():
    proc = subprocess.run([*TABLECTL, "demo", "--rounds", "0"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "must be at least 1, not 0" in proc.stderr
    proc = subprocess.run([*TABLECTL, "demo", "--game", "poker"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "invalid choice: 'poker'" in proc.stderr


@pytest.mark.parametrize("command", ["sim", "demo"])
def test_a_bad_pace_exits_2_naming_it(command):
    config = ["--config", str(SIM_CONFIG_DIR / "baccarat-sim.toml")] if command == "sim" else []
    proc = subprocess.run([*TABLECTL, command, *config, "--pace", "slow"], capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 2
    assert "argument --pace: pace 'slow': human, fast or a number of seconds (e.g. 2 or 0.5)" in proc.stderr
    proc = subprocess.run([*TABLECTL, command, *config, "--pace", "-3"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "pace '-3': a number of seconds must be 0 or more" in proc.stderr


def test_bad_config_exits_2_naming_the_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text((SIM_CONFIG_DIR / "baccarat-sim.toml").read_text().replace('id = "bac-sim-01"', 'id = "bad id!"'))
    proc = subprocess.run([*TABLECTL, "run", "--config", str(bad)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert "table.id" in proc.stderr and "bad id!" in proc.stderr
    # a value the game's rules refuse is a config error too, before anything starts
    rules = tmp_path / "rules.toml"
    rules.write_text((SIM_CONFIG_DIR / "baccarat-sim.toml").read_text().replace("seats = 8", "seats = 12"))
    proc = subprocess.run([*TABLECTL, "run", "--config", str(rules)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2, proc.stderr
    assert "table.seats: Commission-Free Baccarat has 2 to 8 seated positions (rule 3), not 12" in proc.stderr
    missing = subprocess.run([*TABLECTL, "run", "--config", str(tmp_path / "nope.toml")],
                             capture_output=True, text=True, timeout=30)
    assert missing.returncode == 2 and "nope.toml" in missing.stderr


@pytest.mark.parametrize("args, error", [
    (["--since", "0"], "--since 0: a seq starts at 1"),
    (["--password-file", "/nonexistent/pw"], "--password-file: No such file or directory: /nonexistent/pw"),
    (["--tls-ca-file", "/nonexistent/ca.crt"], "--tls-ca-file: cannot read /nonexistent/ca.crt: No such file"),
])
def test_watch_rejects_bad_options_naming_them(args, error):
    proc = subprocess.run([*TABLECTL, "watch", "--broker", "127.0.0.1:1", *args], capture_output=True,
                          text=True, timeout=30)
    assert proc.returncode == 2 and error in proc.stderr, proc.stderr


def test_watch_rejects_a_bad_broker_address():
    proc = subprocess.run([*TABLECTL, "watch", "--broker", "host:notaport"], capture_output=True,
                          text=True, timeout=30)
    assert proc.returncode == 2 and "port must be a number" in proc.stderr




def test_sim_run_and_watch_as_separate_processes(tmp_path, broker):
    """`tablectl sim` makes the devices appear at the configured paths; `tablectl run`
    opens them as it would real hardware; `tablectl watch` shows the pit's view."""
    config = sim_config_file(tmp_path, broker.port)
    results = Subscriber(broker.host, broker.port, "casino/bac-sim-01/event/result")
    sim = _start(["sim", "--config", str(config), "--seed", "9", "--pace", "fast"])
    run = watch = late = None
    try:
        _lines_until(sim, r"tablectl sim: shoe at")
        assert (tmp_path / "dev" / "shoe").exists() and (tmp_path / "dev" / "shuffler").exists()
        watch = _start(["watch", "--broker", f"{broker.host}:{broker.port}"])
        _lines_until(watch, r"watching casino/\+")
        run = _start(["run", "--config", str(config)])
        _lines_until(run, r"table bac-sim-01 ready")
        seen = _lines_until(watch, r"->  (Player wins|Banker wins|a tie)", timeout=60)
        assert any("round 1" in line for line in seen)
        for _ in range(5):
            assert results.get(30).json()["kind"] == "result"
        # A pit screen that comes up late and wants the shoe from its first event: the gap
        # before its first live event is asked for with cmd/replay and filled from the journal.
        late = _start(["watch", "--broker", f"{broker.host}:{broker.port}", "--table", "bac-sim-01",
                       "--replay", "--since", "1"])
        seen = _lines_until(late, r"no gap left: every seq up to \d+ received")
        gap = next(re.search(r"GAP: seqs 1-(\d+) missing; asking for a replay", line) for line in seen
                   if "GAP" in line)
        assert gap, seen
        reply = rf"replay watch-1-{gap.group(1)}: .*from=1, to={gap.group(1)}, count={gap.group(1)}"
        if not any(re.search(reply, line) for line in seen):  # the reply may come before the last replayed event
            _lines_until(late, reply)
        assert any("round 1: player-dealer seat" in line for line in seen), "the replayed start of the shoe"
        late.send_signal(signal.SIGTERM)
        out, _ = late.communicate(timeout=15)
        # watch checks every status, state, event and reply against its schema: a real table's all pass
        assert not [line for line in seen + out.splitlines() if line.startswith("BAD ")], out[-500:]
        summary = re.search(r"watch: 1 tables; (\d+) seqs found missing, (\d+) of them filled later, "
                            r"0 still missing", out)
        assert summary and summary.group(1) == summary.group(2) == gap.group(1), out[-500:]
        run.send_signal(signal.SIGTERM)
        assert run.wait(30) == 0
        status = Subscriber(broker.host, broker.port, "casino/bac-sim-01/status").get(10).json()
        assert status["online"] is False  # a clean shutdown says so
    finally:
        for proc in (run, watch, late, sim):
            if proc and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
        results.close()
    assert sim.returncode == 0


def test_config_error_class_is_what_the_cli_reports():
    with pytest.raises(ConfigError) as err:
        parse_config("[table]\nid = 1\n", "inline.toml")
    assert "inline.toml" in str(err.value) and "table.id" in str(err.value)


def test_prune_keeps_days_and_the_outbox(tmp_path, broker):
    """`tablectl prune` on a table's journal: a dry run first, then the deletion; events
    younger than --keep-days and undelivered ones stay; bad arguments are refused."""
    import sqlite3
    import time

    from scripted_clock import ScriptedClock

    from controller.table.journal import Journal, Pending

    config = sim_config_file(tmp_path, broker.port)
    db = tmp_path / "journal.db"
    now = time.time()
    clock = ScriptedClock(now - 40 * 86400)  # the journal received these 40 days ago (ts alone proves nothing)
    journal = Journal(db, "bac-sim-01", clock=clock)
    journal.append_many([Pending("table", None, {"status": "open"}, now - 40 * 86400 + i) for i in range(6)])
    clock.run(40 * 86400 - 3600)
    journal.append_many([Pending("table", None, {"status": "closed"}, now - 3600)])
    journal.mark_delivered([1, 2, 3, 4, 5, 7])  # 6 is old but unacknowledged
    journal.close()
    dry = subprocess.run([*TABLECTL, "prune", "--config", str(config), "--keep-days", "30", "--dry-run"],
                         capture_output=True, text=True, timeout=30)
    assert dry.returncode == 0, dry.stderr
    assert "would delete 5 delivered events older than" in dry.stdout and "(seq 1..5)" in dry.stdout
    assert "1 undelivered events kept" in dry.stdout
    real = subprocess.run([*TABLECTL, "prune", "--config", str(config), "--keep-days", "30"],
                          capture_output=True, text=True, timeout=30)
    assert real.returncode == 0 and "deleted 5 delivered events" in real.stdout, real.stderr
    with sqlite3.connect(db) as conn:
        assert [s for (s,) in conn.execute("SELECT seq FROM events ORDER BY seq")] == [6, 7]
    for bad, why in ((["--keep-days", "0"], "keep at least 1 day"), (["--keep-days", "x"], "not a number of days")):
        proc = subprocess.run([*TABLECTL, "prune", "--config", str(config), *bad], capture_output=True, text=True,
                              timeout=30)
        assert proc.returncode == 2 and why in proc.stderr
    missing = subprocess.run([*TABLECTL, "prune", "--config", str(config).replace("table.toml", "nope.toml"),
                              "--keep-days", "30"], capture_output=True, text=True, timeout=30)
    assert missing.returncode == 2 and "nope.toml" in missing.stderr
