"""`tablectl sim` and `tablectl run` as two processes for every game with a dice cup, on a real
Mosquitto: the config comes from `tablectl sim --write-config`, the simulator serves its cup on a
Unix socket (hw_sim.usb_socket), and the controller's pyusb driver reaches it there through the
``unix:`` backend (drivers.usb_socket), its real code path unchanged. The cup is unplugged and
plugged back in mid-game (a fault by name), and for Pai Gow Tiles the whole simulator is stopped
and started again: to the table both are a cup that went away and came back."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from mqtt_support import Subscriber

from controller.shared.schemas import validate_event

TABLECTL = [sys.executable, "-m", "controller.cli"]
WAIT = 90.0


class Proc:
    """A `tablectl` process whose stdout lines are read by a thread (none is lost, none blocks it)."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([*TABLECTL, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        self._cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._cond:
                self.lines.append(line)
                self._cond.notify_all()

    def line(self, pattern: str, timeout: float = 30.0) -> str:
        with self._cond:
            found = self._cond.wait_for(lambda: next((x for x in self.lines if re.search(pattern, x)), None), timeout)
        assert found, f"no line matching {pattern!r}; got {self.lines[-10:]}, exit {self.proc.poll()}"
        return found

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
            raise


@pytest.fixture
def folder() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="tc-e2e-", dir="/tmp"))   # a socket's path holds 107 bytes
    yield path
    shutil.rmtree(path, ignore_errors=True)


def write_config(folder: Path, game: str, broker) -> tuple[Path, str]:
    table = f"{game.replace('_', '-')}-e2e"
    config = folder / "table.toml"
    done = subprocess.run([*TABLECTL, "sim", "--game", game, "--write-config", str(config), "--table-id", table,
                           "--broker", f"{broker.host}:{broker.port}", "--dir", str(folder / "dev")],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert f'backend = "unix:{folder}/dev/cup.sock"' in config.read_text()
    return config, table


def events(sub: Subscriber) -> list[dict]:
    return [m.json() for m in sub.seen]


def count(sub: Subscriber, kind: str) -> int:
    return sum(1 for e in events(sub) if e["kind"] == kind)


def cup_statuses(sub: Subscriber) -> list[str]:
    return [e["data"]["status"] for e in events(sub) if e["kind"] == "device" and e["data"]["device"] == "cup"]


def wait_until(sub: Subscriber, done, what: str) -> None:
    sub.wait_for(lambda _m: done(), timeout=WAIT) if not done() else None


def check(sub: Subscriber, game: str) -> list[dict]:
    seen = events(sub)
    for env in seen:
        validate_event(env, game=game)
    seqs = sorted({e["seq"] for e in seen})
    assert seqs == list(range(1, len(seqs) + 1)), "the pit got every seq"
    return seen


@pytest.mark.parametrize("game", ["hot_action", "pai_gow_tiles", "double_hand"])
def test_tablectl_sim_serves_the_cup_to_tablectl_run_and_the_cup_is_unplugged_and_back(game, broker, folder):
    config, table = write_config(folder, game, broker)
    sub = Subscriber(broker.host, broker.port, f"casino/{table}/event/#")
    sim = Proc("sim", "--config", str(config), "--seed", "7", "--pace", "fast", "--fault", "cup.unplug@dice:2+0.5s")
    run = None
    try:
        sim.line(rf"cup at unix:{re.escape(str(folder))}/dev/cup\.sock; dealer follows .* at fast pace")
        run = Proc("run", "--config", str(config))
        run.line(rf"table {table} ready")
        wait_until(sub, lambda: count(sub, "result") >= 4 and cup_statuses(sub)[-1:] == ["online"]
                   and "offline" in cup_statuses(sub), "4 results and the cup back")
        seen = check(sub, game)
        statuses = cup_statuses(sub)
        assert statuses[0] == "online" and "offline" in statuses and statuses[-1] == "online", statuses
        online = next(e["data"] for e in seen if e["kind"] == "device" and e["data"]["device"] == "cup")
        assert online["detail"] == "SIMCUP 1.0"          # the cup's product string and firmware, over the socket
        throws = [e["data"] for e in seen if e["kind"] == "dice"]
        assert len(throws) >= 4 and all(len(t["values"]) == 3 and 1 <= min(t["values"]) <= max(t["values"]) <= 6
                                        for t in throws)
        assert not [e for e in seen if e["kind"] == "transition" and e["data"]["to"] == "closed"]
        assert run.stop() == 0
        run = None
    finally:
        if run is not None:
            run.stop()
        assert sim.stop() == 0
        sub.close()


def test_a_stopped_simulator_is_a_cup_unplugged_and_a_new_one_deals_on(broker, folder):
    """Pai Gow Tiles plays no cards: its simulator holds only the cup, so stopping it and starting
    another is, to the table, the cup going and coming back; the new dealer takes up what the table
    waits for from its retained state, whatever it was."""
    config, table = write_config(folder, "pai_gow_tiles", broker)
    sub = Subscriber(broker.host, broker.port, f"casino/{table}/event/#")
    sim = Proc("sim", "--config", str(config), "--seed", "3", "--pace", "fast")
    run = second = None
    try:
        sim.line(r"cup at unix:")
        run = Proc("run", "--config", str(config))
        wait_until(sub, lambda: count(sub, "result") >= 2, "2 results")
        assert sim.stop() == 0
        wait_until(sub, lambda: cup_statuses(sub)[-1:] == ["offline"], "the cup offline")
        offline = [e["data"] for e in events(sub) if e["kind"] == "device" and e["data"]["status"] == "offline"]
        assert offline[-1]["detail"] == "unplugged", offline
        before = count(sub, "result")
        second = Proc("sim", "--config", str(config), "--seed", "4", "--pace", "fast")
        second.line(r"cup at unix:")
        wait_until(sub, lambda: cup_statuses(sub)[-1:] == ["online"] and count(sub, "result") >= before + 3,
                   "the cup back and 3 more results")
        check(sub, "pai_gow_tiles")
        assert run.stop() == 0
        run = None
    finally:
        for proc in (run, second):
            if proc is not None:
                proc.stop()
        if sim.proc.poll() is None:
            sim.stop()
        sub.close()


def test_a_second_simulator_of_the_same_table_is_refused(broker, folder):
    config, _table = write_config(folder, "pai_gow_tiles", broker)
    sim = Proc("sim", "--config", str(config), "--pace", "fast")
    try:
        sim.line(r"cup at unix:")
        again = subprocess.run([*TABLECTL, "sim", "--config", str(config), "--pace", "fast"], capture_output=True,
                               text=True, timeout=30)
        assert again.returncode == 2
        assert again.stderr == (f"tablectl sim: USB socket {folder}/dev/cup.sock: another process serves it (a "
                                "tablectl sim of this table still running?); stop it, or give this table another "
                                "path\n")
    finally:
        assert sim.stop() == 0
