"""A damaged or unusable journal through the real CLI (issue 13, defect 9): `tablectl run`
and `tablectl prune` exit with status 2 and one line naming the file, the fault and what
to do (systemd does not restart 2); a damaged row is an alarm, not a stop; `tablectl
journal new` keeps the old file and the table's first start on the new one tells the pit.

Real processes, real SQLite files, a real Mosquitto where the table must publish, and a
real read-only tmpfs."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mqtt_support import Subscriber
from sim_table import sim_config_file

from controller.table.instance_lock import InstanceLock
from controller.table.journal import Journal, Pending
from controller.table.journal_check import SEQ_MAX

TABLECTL = [sys.executable, "-m", "controller.cli"]
TABLE = "bac-sim-01"
BASE = f"casino/{TABLE}"


def tablectl(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([*TABLECTL, *args], capture_output=True, text=True, timeout=timeout)


def config_for(tmp_path: Path, journal: Path, port: int = 1) -> Path:
    """The example sim table, its journal at ``journal`` (devices that are not there: the
    table runs without them)."""
    return sim_config_file(tmp_path, port, **{f'path = "{tmp_path / "journal.db"}"': f'path = "{journal}"'})


def journal_with(path: Path, n: int = 5, delivered: int = 0) -> None:
    journal = Journal(path, TABLE)
    journal.append_many([Pending("table", None, {"status": "open"}, 1000.0 + i) for i in range(n)])
    journal.mark_delivered(range(1, delivered + 1))
    journal.close()


def sql(path: Path, *statements: str | tuple) -> None:
    with sqlite3.connect(path) as db:
        for statement in statements:
            if isinstance(statement, tuple):
                db.execute(*statement)
            else:
                db.executescript(statement)
    db.close()


# -- each fault: exit 2 and one line ------------------------------------------------------------

def _parent_is_a_file(tmp_path: Path) -> Path:
    (tmp_path / "var").write_text("a file")
    return tmp_path / "var" / "journal.db"


def _a_directory(tmp_path: Path) -> Path:
    (tmp_path / "journal.db").mkdir()
    return tmp_path / "journal.db"


def _garbage(tmp_path: Path) -> Path:
    path = tmp_path / "journal.db"
    path.write_bytes(os.urandom(8192))
    return path


def _truncated(tmp_path: Path) -> Path:
    path = tmp_path / "journal.db"
    journal_with(path, n=2000)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return path


def _foreign_tables(tmp_path: Path) -> Path:
    path = tmp_path / "journal.db"
    sql(path, "CREATE TABLE photos (id INTEGER PRIMARY KEY, blob BLOB); CREATE TABLE tags (name TEXT);")
    return path


def _foreign_events(tmp_path: Path) -> Path:
    path = tmp_path / "journal.db"
    sql(path, "CREATE TABLE events (id INTEGER PRIMARY KEY, title TEXT); CREATE TABLE meta (k TEXT, v TEXT);")
    return path


def _birth_not_json(tmp_path: Path) -> Path:
    path = tmp_path / "journal.db"
    journal_with(path)
    sql(path, "INSERT OR REPLACE INTO meta VALUES ('birth', 'three');")
    return path


def _birth_past_the_pit(tmp_path: Path) -> Path:
    path = tmp_path / "journal.db"
    journal_with(path)
    sql(path, "INSERT OR REPLACE INTO meta VALUES ('birth', '100000000000000000000000');")
    return path


def _seq_at_the_end(tmp_path: Path) -> Path:
    path = tmp_path / "journal.db"
    journal_with(path, n=1)
    sql(path, ("UPDATE sqlite_sequence SET seq = ? WHERE name = 'events'", (SEQ_MAX - 2,)))
    return path


FAULTS: dict[str, tuple[Callable[[Path], Path], str, bool]] = {
    # name: (make it, the fault as printed, is it damage that `journal new` is for)
    "parent is a file": (_parent_is_a_file, r"/var is a file, not a directory; move that file away", False),
    "a directory": (_a_directory, r"is a directory, not a journal file; move the directory away", False),
    "garbage": (_garbage, r'is damaged: SQLite says "file is not a database"', True),
    "half truncated": (_truncated, r'is damaged: SQLite says "database disk image is malformed"', True),
    "another program's tables": (_foreign_tables, r"is not a tablectl journal: an SQLite file with the tables "
                                                  r"photos, tags; set journal.path", False),
    "another program's events": (_foreign_events, r"is not a tablectl journal: its events table has the columns "
                                                  r"id, title, not delivered", False),
    "birth not JSON": (_birth_not_json, r"its meta value 'birth' is not JSON \(Expecting value: line 1 column 1 "
                                        r"\(char 0\)\): the table cannot start without it", True),
    "birth of 10**23": (_birth_past_the_pit, rf"its meta value 'birth' is beyond {SEQ_MAX - 1}, more births than "
                                             r"any table has", True),   # issue 27: the pit refused every status
    "seq at 2\\*\\*63": (_seq_at_the_end, rf"its next seq is {SEQ_MAX - 1}, within 1,000,000,000 of SQLite's "
                                          r"largest integer", True),
}


def assert_one_line(proc: subprocess.CompletedProcess, journal: Path, fault: str) -> str:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"tablectl: {journal}: "), lines[0]
    assert re.search(fault, lines[0]), lines[0]
    return lines[0]


@pytest.mark.parametrize("name", FAULTS)
def test_run_exits_2_with_one_line_for_each_journal_fault(tmp_path: Path, name: str) -> None:
    make, fault, damage = FAULTS[name]
    journal = make(tmp_path)
    config = config_for(tmp_path, journal)
    line = assert_one_line(tablectl("run", "--config", str(config)), journal, fault)
    assert (f"tablectl journal new --config {config}" in line) == damage, line


@pytest.mark.parametrize("name", ["garbage", "another program's tables", "birth not JSON"])
def test_prune_exits_2_with_the_same_line(tmp_path: Path, name: str) -> None:
    make, fault, _ = FAULTS[name]
    journal = make(tmp_path)
    config = config_for(tmp_path, journal)
    assert_one_line(tablectl("prune", "--config", str(config), "--keep-days", "30"), journal, fault)


@pytest.fixture
def read_only_mount(tmp_path: Path) -> Iterator[Path]:
    """A real tmpfs (tests run as root, for whom a chmod 0555 directory is no obstacle)."""
    where = tmp_path / "ro"
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def test_run_on_a_read_only_file_system_exits_2(tmp_path: Path, read_only_mount: Path) -> None:
    journal = read_only_mount / "journal.db"
    journal_with(journal)
    subprocess.run(["mount", "-o", "remount,ro", str(read_only_mount)], check=True)
    config = config_for(tmp_path, journal)
    assert_one_line(tablectl("run", "--config", str(config)), journal,
                    rf"the file system holding {read_only_mount} is mounted read-only; remount it read-write")


def test_a_nan_in_the_config_exits_2_naming_the_key(tmp_path: Path) -> None:
    config = sim_config_file(tmp_path, 1)
    config.write_text(config.read_text().replace("[journal]", "[journal]\nwarn_at = nan"))
    proc = tablectl("run", "--config", str(config))
    assert proc.returncode == 2 and proc.stderr.strip() == (
        f"tablectl: {config}: journal.warn_at: must be a finite number, not nan"), proc.stderr


# -- a running table: damaged rows are alarms, the rest goes out ----------------------------------

class Running:
    """`tablectl run` in a process of its own, its output drained by a thread."""

    def __init__(self, config: Path) -> None:
        # PYTHONFAULTHANDLER: a run that will not stop is made to dump every thread's stack (stop()).
        self.proc = subprocess.Popen([*TABLECTL, "run", "--config", str(config)], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True,
                                     env={**os.environ, "PYTHONFAULTHANDLER": "1"})
        self.lines: list[str] = []
        self.ready = threading.Event()
        threading.Thread(target=self._drain, daemon=True).start()
        assert self.ready.wait(60), f"tablectl run did not start: {self.lines[-20:]}"

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)
            if f"table {TABLE} ready" in line:
                self.ready.set()
        self.ready.set()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.exit_code()

    def exit_code(self, within: float = 30) -> int:
        """The run's exit code once it has stopped (no signal sent here)."""
        try:
            return self.proc.wait(within)
        except subprocess.TimeoutExpired:
            self.proc.send_signal(signal.SIGABRT)   # the stacks of its threads go to the output
            self.proc.wait(10)
            raise AssertionError(f"tablectl run did not stop within {within:g} s of SIGTERM; its last output:\n"
                                 + "".join(self.lines[-150:])) from None


def tgkill(pid: int, tid: int, sig: int) -> None:
    """Send ``sig`` to one thread of another process (Python has no tgkill)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.syscall(234, pid, tid, sig) != 0:   # SYS_tgkill on x86_64
        raise OSError(ctypes.get_errno(), f"tgkill {pid} {tid}")


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="the tgkill syscall number is x86_64's")
def test_run_stops_on_a_sigterm_the_kernel_hands_to_another_thread(tmp_path: Path, broker) -> None:
    # The hang seen once in about 40 starts: the SIGTERM reached a thread other than the main one,
    # and the main thread, asleep in Event.wait, never ran its Python handler
    # (drivers/stop_signal.py). Here it is sent that way on purpose, to the first thread the run
    # started (a device line's, asleep in a C-level wait): before the fix the run hung every time.
    journal = tmp_path / "journal.db"
    journal_with(journal, n=2, delivered=2)
    run = Running(config_for(tmp_path, journal, broker.port))
    pid = run.proc.pid
    others = sorted(int(t) for t in os.listdir(f"/proc/{pid}/task") if int(t) != pid)
    assert others, "tablectl run has threads besides the main one"
    tgkill(pid, others[0], signal.SIGTERM)
    try:
        assert run.exit_code(within=10) == 0   # that one signal: stop() would send another
    finally:
        run.stop()


def alarm(code: str) -> Callable:
    return lambda m: m.topic == f"{BASE}/event/alarm" and m.json()["data"]["code"] == code


def test_a_damaged_undelivered_row_is_an_alarm_and_the_rest_goes_out(tmp_path: Path, broker) -> None:
    journal = tmp_path / "journal.db"
    journal_with(journal, n=6, delivered=1)
    sql(journal, "UPDATE events SET envelope = '{\"seq\": 3, truncated' WHERE seq = 3;")
    config = config_for(tmp_path, journal, broker.port)
    pit = Subscriber(broker.host, broker.port, f"{BASE}/event/#")
    run = Running(config)
    try:
        found = pit.wait_for(alarm("journal_row_damaged")).json()
        assert found["data"]["severity"] == "critical"
        assert found["data"]["message"].startswith("event seq 3 cannot be read from the journal")
        assert "seq 3 stays a gap" in found["data"]["action"]
        for seq in (2, 4, 5, 6):  # the backlog drains past it
            pit.wait_for(lambda m, s=seq: m.json()["seq"] == s)
        assert run.proc.poll() is None  # and the table goes on
    finally:
        assert run.stop() == 0
        pit.close()
    with sqlite3.connect(journal) as db:
        assert db.execute("SELECT delivered FROM events WHERE seq = 3").fetchone() == (2,)  # kept, quarantined
        assert db.execute("SELECT COUNT(*) FROM events WHERE delivered = 0").fetchone() == (0,)
    db.close()
    again = Running(config)  # reported once: a restart does not find it in the outbox again
    try:
        pit = Subscriber(broker.host, broker.port, f"{BASE}/event/alarm")
        assert not any(alarm("journal_row_damaged")(m) for m in pit.drain())
    finally:
        assert again.stop() == 0
        pit.close()


def test_a_replay_over_a_damaged_row_sends_the_others_and_names_it(tmp_path: Path, broker) -> None:
    journal = tmp_path / "journal.db"
    journal_with(journal, n=6, delivered=6)
    sql(journal, "UPDATE events SET envelope = 'not json at all' WHERE seq = 4;")
    config = config_for(tmp_path, journal, broker.port)
    pit = Subscriber(broker.host, broker.port, f"{BASE}/#")
    run = Running(config)
    try:
        pit.wait_for(lambda m: m.topic == f"{BASE}/status" and m.json().get("online"))
        pit.publish(f"{BASE}/cmd/replay", {"id": "gap-1", "from": 2, "to": 6})
        reply = pit.wait_topic("/cmd/replay/reply").json()
        assert reply["ok"], reply
        found = pit.wait_for(alarm("journal_row_damaged")).json()
        assert found["data"]["message"].startswith("event seq 4 cannot be read from the journal")
        replayed = {pit.wait_for(lambda m, s=seq: "/event/" in m.topic and m.json()["seq"] == s).json()["seq"]
                    for seq in (2, 3, 5, 6)}
        assert replayed == {2, 3, 5, 6}
    finally:
        assert run.stop() == 0
        pit.close()


# -- journal new: the operator's command -----------------------------------------------------------

def test_journal_new_keeps_a_garbage_file_and_the_table_says_so(tmp_path: Path, broker) -> None:
    journal = _garbage(tmp_path)
    garbage = journal.read_bytes()
    config = config_for(tmp_path, journal, broker.port)
    proc = tablectl("journal", "new", "--config", str(config))
    assert proc.returncode == 0, proc.stderr
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("journal.db.damaged-")]
    assert len(kept) == 1 and kept[0].read_bytes() == garbage  # moved aside, byte for byte
    assert re.fullmatch(r"journal\.db\.damaged-\d{8}T\d{6}", kept[0].name)
    assert f"moved to {kept[0]}" in proc.stdout and "its first seq is 1 (the old journal's last: unreadable)" \
        in proc.stdout
    assert "seq starts again at 1" in proc.stderr  # the operator is warned
    pit = Subscriber(broker.host, broker.port, f"{BASE}/event/alarm")
    run = Running(config)
    try:
        found = pit.wait_for(alarm("journal_restarted")).json()
        assert found["seq"] == 1 and found["data"]["severity"] == "critical"
        assert "seq starts again at 1" in found["data"]["message"] and str(kept[0]) in found["data"]["message"]
    finally:
        assert run.stop() == 0
        pit.close()


def test_journal_new_goes_on_numbering_after_a_readable_damaged_journal(tmp_path: Path, broker) -> None:
    """A journal the table refuses (its birth is not JSON) that SQLite can still read: the new
    journal's seq goes on after its last one, so no seq the pit has seen is handed out again;
    what can be read (the last state, a round left open) is carried over."""
    journal = tmp_path / "journal.db"
    journal_with(journal, n=7, delivered=7)
    sql(journal, "INSERT OR REPLACE INTO meta VALUES ('birth', '{');",
        "INSERT OR REPLACE INTO meta VALUES ('state', '\"dealing\"');",
        "INSERT OR REPLACE INTO meta VALUES ('round', '4');", "INSERT OR REPLACE INTO meta VALUES ('round_open', 'true');")
    config = config_for(tmp_path, journal, broker.port)
    proc = tablectl("journal", "new", "--config", str(config))
    assert proc.returncode == 0, proc.stderr
    assert "its first seq is 8 (the old journal's last: 7)" in proc.stdout
    assert "carried over: round, round_open, state" in proc.stdout
    pit = Subscriber(broker.host, broker.port, f"{BASE}/event/#")
    run = Running(config)
    try:
        found = pit.wait_for(alarm("journal_restarted")).json()
        assert found["seq"] == 8 and "seq goes on from 8" in found["data"]["message"]
        void = pit.wait_for(lambda m: m.topic.endswith("/event/void")).json()  # the round left open
        assert void["data"]["round"] == 4 and void["seq"] == 9
    finally:
        assert run.stop() == 0
        pit.close()


def test_journal_new_refuses_what_it_is_not_for(tmp_path: Path) -> None:
    journal = tmp_path / "journal.db"
    config = config_for(tmp_path, journal)
    proc = tablectl("journal", "new", "--config", str(config))
    assert proc.returncode == 2 and proc.stderr.startswith(f"tablectl: {journal}: there is no journal here"), proc.stderr
    journal_with(journal)  # a sound journal: not without --force
    proc = tablectl("journal", "new", "--config", str(config))
    assert proc.returncode == 2 and "is sound: tablectl journal check finds no fault in it" in proc.stderr
    assert not [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
    lock = InstanceLock(journal, TABLE).acquire()  # as a running table holds it
    try:
        proc = tablectl("journal", "new", "--config", str(config), "--force")
        assert proc.returncode == 2 and "another tablectl" in proc.stderr and "stop it first" in proc.stderr
    finally:
        lock.release()
    proc = tablectl("journal", "new", "--config", str(config), "--force")
    assert proc.returncode == 0 and "its first seq is 6 (the old journal's last: 5)" in proc.stdout, proc.stderr
    (tmp_path / "other").mkdir()
    foreign = _foreign_tables(tmp_path / "other")
    other_config = config_for(tmp_path / "other", foreign)
    proc = tablectl("journal", "new", "--config", str(other_config))
    assert proc.returncode == 2 and "is not a tablectl journal" in proc.stderr and "--force" in proc.stderr
    assert foreign.exists()  # another program's file is not renamed


def test_journal_new_with_first_seq_from_the_pit(tmp_path: Path) -> None:
    journal = _garbage(tmp_path)
    config = config_for(tmp_path, journal)
    proc = tablectl("journal", "new", "--config", str(config), "--first-seq", "1201")
    assert proc.returncode == 0 and "its first seq is 1201" in proc.stdout, proc.stderr
    new = Journal(journal, TABLE)
    assert new.next_seq == 1201 and new.append("table", None, {"status": "open"}, 1.0).seq == 1201
    assert new.meta("restarted")["last_seq"] is None
    new.close()


def test_journal_check_reads_every_page(tmp_path: Path) -> None:
    journal = tmp_path / "journal.db"
    journal_with(journal, n=4, delivered=2)
    sql(journal, "UPDATE events SET envelope = 'x' WHERE seq = 2;")
    config = config_for(tmp_path, journal)
    proc = tablectl("journal", "check", "--config", str(config))
    assert proc.returncode == 0, proc.stderr
    assert f"{journal}: 4 events held, seq 1..4; 2 not yet acknowledged by the broker" in proc.stdout
    assert "rows that cannot be read (not published; alarm journal_row_damaged): seq 2" in proc.stdout
    _truncated(tmp_path / "t")
    proc = tablectl("journal", "check", "--config", str(config_for(tmp_path / "t", tmp_path / "t" / "journal.db")))
    assert proc.returncode == 2 and "is damaged" in proc.stderr


# -- prune ages events by the journal, not by ts alone (defect 12) -----------------------------------

def test_prune_keeps_recent_events_whose_ts_jumped_back(tmp_path: Path) -> None:
    """Events written now carry ts values from a clock that jumped back 90 days, after events
    with the right time: `tablectl prune --keep-days 30` deletes none of them."""
    import time

    journal = tmp_path / "journal.db"
    now = time.time()
    writer = Journal(journal, TABLE)
    writer.append_many([Pending("table", None, {"status": "open"}, now - 60) for _ in range(3)]
                       + [Pending("table", None, {"status": "closed"}, now - 90 * 86400) for _ in range(4)])
    writer.mark_delivered(range(1, 8))
    writer.close()
    config = config_for(tmp_path, journal)
    proc = tablectl("prune", "--config", str(config), "--keep-days", "30")
    assert proc.returncode == 0 and "deleted 0 delivered events" in proc.stdout, proc.stdout + proc.stderr
    with sqlite3.connect(journal) as db:
        assert [s for (s,) in db.execute("SELECT seq FROM events ORDER BY seq")] == [1, 2, 3, 4, 5, 6, 7]
    db.close()


def test_a_disk_that_fills_while_the_table_runs_is_one_line_and_exit_1(tmp_path: Path, read_only_mount: Path,
                                                                       broker) -> None:
    """Issue 27: a full disk printed three tracebacks (one an uncaught RuntimeError) and exited 1.
    One line naming the disk and what to do; exit 1, which systemd restarts once space is freed."""
    import paho.mqtt.client as mqtt

    journal = read_only_mount / "journal.db"
    journal_with(journal, n=2, delivered=2)
    run = Running(config_for(tmp_path, journal, broker.port))
    try:
        with open(read_only_mount / "filler", "wb") as filler:   # every byte the tmpfs has left
            try:
                while True:
                    filler.write(b"\0" * 65536)
                    filler.flush()
            except OSError:
                pass
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        client.connect(broker.host, broker.port)
        client.loop_start()
        for n in range(200):   # each refused command is an event to journal: the disk is full
            client.publish(f"{BASE}/cmd/open", f'{{"id": "x{n}", "bad": 1}}', qos=1)
            if run.proc.poll() is not None:
                break
        client.loop_stop()
        code = run.exit_code(within=60)
    finally:
        run.stop()
    text = "".join(run.lines)
    assert code == 1, text
    assert "Traceback" not in text and "RuntimeError" not in text, text
    said = [line for line in run.lines if line.startswith("tablectl: ")]
    assert said[-1].startswith(f"tablectl: {journal}: the disk is full"), text


def test_a_row_of_another_table_is_quarantined_not_published(tmp_path: Path, broker) -> None:
    """Issue 27: a journal row with valid JSON but another table's name was published as it was;
    the pit refused it and asked for that seq for ever. It is a damaged row: an alarm, and a gap."""
    journal = tmp_path / "journal.db"
    journal_with(journal, n=4)
    sql(journal, "UPDATE events SET envelope = json_set(envelope, '$.table', 'bac-sim-99') WHERE seq = 2;")
    pit = Subscriber(broker.host, broker.port, f"{BASE}/event/#")
    run = Running(config_for(tmp_path, journal, broker.port))
    try:
        found = pit.wait_for(alarm("journal_row_damaged")).json()
        assert found["data"]["message"].startswith("event seq 2 cannot be read from the journal")
        assert "another table" in found["data"]["message"]
        for seq in (1, 3, 4):
            pit.wait_for(lambda m, s=seq: m.json()["seq"] == s)
    finally:
        assert run.stop() == 0
        pit.close()
    assert all(m.json().get("table") == TABLE for m in pit.drain())
