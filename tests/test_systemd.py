"""systemd and udev: the unit files verify, the udev rules parse, and the
watchdog is pinged only while the devices and the MQTT client are alive.

The watchdog test runs `tablectl run` as systemd would: a process with
``NOTIFY_SOCKET`` (a Unix datagram socket this test owns) and
``WATCHDOG_USEC``, against a real broker and `tablectl sim` in another
process. Freezing the simulator (SIGSTOP) makes the devices go silent, and
killing it takes the devices away; each time the pings must stop, and come
back with the devices. Every wait is a receive with a timeout on that socket.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mqtt_support import RunningBroker
from sim_table import sim_config_file

from controller.cli import _Watchdog, watchdog_problems
from controller.table.loop import Health
from controller.table.sdnotify import notify, watchdog_interval

ROOT = Path(__file__).resolve().parent.parent
SYSTEMD = ROOT / "systemd"
UNITS = ("tablectl@.service", "tablectl-sim@.service")
INSTALLED_TABLECTL = "/opt/tablectl/.venv/bin/tablectl"
_SCRIPT = Path(sys.executable).parent / "tablectl"
TABLECTL = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "controller.cli"]
"""The console script, as ExecStart runs it (``-m controller.cli`` where it is not installed)."""

WATCHDOG_USEC = 400_000
TICK = WATCHDOG_USEC / 2_000_000   # what systemd's WatchdogSec=0.4s asks: a ping every 0.2 s


# -- the unit files -------------------------------------------------------------------

def _unit(name: str) -> dict[str, list[tuple[str, str]]]:
    """``{section: [(key, value), ...]}`` of a unit file (comments and blank lines dropped)."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current = None
    for raw in (SYSTEMD / name).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = line.strip("[]")
            sections.setdefault(current, [])
            continue
        key, sep, value = line.partition("=")
        assert sep and current, f"{name}: not a key=value line in a section: {raw!r}"
        sections[current].append((key.strip(), value.strip()))
    return sections


def _values(unit: dict, section: str, key: str) -> list[str]:
    return [v for k, v in unit.get(section, []) if k == key]


@pytest.fixture
def units_for_verify(tmp_path: Path) -> Path:
    """The units with ExecStart pointed at this checkout's tablectl: verify
    insists that the binary exists, and /opt/tablectl is not installed here."""
    exe = _SCRIPT if _SCRIPT.is_file() else Path(shutil.which("tablectl") or "")
    assert exe.is_file(), "the tablectl console script is not installed in this environment"
    out = tmp_path / "units"
    out.mkdir()
    for name in UNITS:
        text = (SYSTEMD / name).read_text()
        assert INSTALLED_TABLECTL in text, f"{name}: ExecStart should run {INSTALLED_TABLECTL}"
        (out / name).write_text(text.replace(INSTALLED_TABLECTL, str(exe)))
    return out


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (apt-get install systemd); CI has it")
def test_units_pass_systemd_analyze_verify(units_for_verify: Path) -> None:
    # verify exits 0 even for an unknown key or a value it cannot parse (it
    # only warns), so any line about our units on stderr is a failure too.
    files = [str(units_for_verify / name) for name in UNITS]
    instances = [str(units_for_verify / name.replace("@.", "@bac-01.")) for name in UNITS]
    proc = subprocess.run(["systemd-analyze", "verify", "--man=no", "--recursive-errors=no",
                           *files, *instances], capture_output=True, text=True, timeout=120)
    ours = [line for line in proc.stderr.splitlines() if "tablectl" in line]
    assert proc.returncode == 0 and not ours, proc.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (apt-get install systemd); CI has it")
def test_verify_would_catch_a_mistake(units_for_verify: Path) -> None:
    """The check above is not vacuous: a misspelt key is reported on stderr."""
    bad = units_for_verify / "tablectl@.service"
    bad.write_text(bad.read_text().replace("WatchdogSec=30s", "WatchdogSecs=30s"))
    proc = subprocess.run(["systemd-analyze", "verify", "--man=no", "--recursive-errors=no", str(bad)],
                          capture_output=True, text=True, timeout=120)
    assert "WatchdogSecs" in proc.stderr


def test_controller_unit_carries_the_operations_contract() -> None:
    unit = _unit("tablectl@.service")
    one = {k: v for k, v in unit["Service"]}  # the last value of each key
    assert one["Type"] == "notify" and one["NotifyAccess"] == "main"
    assert one["ExecStart"] == f"{INSTALLED_TABLECTL} run --config /etc/tablectl/%i.toml"
    assert one["Restart"] == "always" and one["RestartSec"]
    assert one["RestartPreventExitStatus"] == "2"  # tablectl's exit status for a bad config
    assert _values(unit, "Unit", "StartLimitBurst") and _values(unit, "Unit", "StartLimitIntervalSec")
    assert one["WatchdogSec"] == "30s" and one["StateDirectory"] == "tablectl"
    assert one["User"] == "tablectl"
    assert set(one["SupplementaryGroups"].split()) == {"dialout", "gpio"}   # the cup is group tablectl: Group=
    # hardening that still reaches the serial lines, GPIO and the USB dice cup
    assert one["ProtectSystem"] == "strict" and one["DevicePolicy"] == "closed"
    assert one["NoNewPrivileges"] == "yes" and one["ProtectHome"] == "yes" and one["PrivateTmp"] == "yes"
    allowed = {v.split()[0] for v in _values(unit, "Service", "DeviceAllow")}
    assert {"char-ttyUSB", "char-ttyACM", "char-gpiochip", "char-*gpiomem*", "char-usb_device"} <= allowed
    assert "PrivateDevices" not in one and "PrivateUsers" not in one and "ProcSubset" not in one
    assert set(one["RestrictAddressFamilies"].split()) == {"AF_UNIX", "AF_INET", "AF_INET6", "AF_NETLINK"}


def test_a_journal_no_restart_can_fix_exits_with_the_status_systemd_does_not_restart(tmp_path: Path) -> None:
    """A damaged journal used to exit 1, which Restart=always retried for ever: it exits with
    the status of RestartPreventExitStatus=, one line naming the file and what to do."""
    prevent = {k: v for k, v in _unit("tablectl@.service")["Service"]}["RestartPreventExitStatus"].split()
    journal = tmp_path / "journal.db"
    journal.write_bytes(b"SQLite format 3\0" + os.urandom(4080))  # a header, then garbage
    config = sim_config_file(tmp_path, 1)
    proc = subprocess.run([*TABLECTL, "run", "--config", str(config)], capture_output=True, text=True, timeout=60)
    assert str(proc.returncode) in prevent, proc.stderr
    assert proc.stderr.startswith(f"tablectl: {journal}: is damaged") and proc.stderr.count("\n") == 1, proc.stderr
    assert f"tablectl journal new --config {config}" in proc.stderr


def test_sim_unit_runs_the_simulator_without_hardware() -> None:
    unit = _unit("tablectl-sim@.service")
    one = {k: v for k, v in unit["Service"]}
    assert one["ExecStart"] == f"{INSTALLED_TABLECTL} sim --config /etc/tablectl/%i.toml"
    assert one["PrivateDevices"] == "yes" and "DeviceAllow" not in one
    assert one["RuntimeDirectory"] == "tablectl-sim/%i"
    assert "tablectl@%i.service" in _values(unit, "Unit", "Before")


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="systemd-sysusers is not installed")
def test_sysusers_file_creates_the_user_and_its_groups(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    proc = subprocess.run(["systemd-sysusers", "--dry-run", f"--root={tmp_path}", str(SYSTEMD / "tablectl.sysusers")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout + proc.stderr
    assert re.search(r"Creating user '?tablectl'?", out), out
    for group in ("dialout", "gpio"):
        assert re.search(rf"Creating group '?{group}'?", out), out


# -- the udev rules -------------------------------------------------------------------

# udev(7): which keys may be matched (==, !=) and which assigned (=, +=, -=, :=).
MATCH_KEYS = {"ACTION", "DEVPATH", "KERNEL", "KERNELS", "NAME", "SYMLINK", "SUBSYSTEM", "SUBSYSTEMS",
              "DRIVER", "DRIVERS", "ATTR", "ATTRS", "SYSCTL", "ENV", "CONST", "TAG", "TAGS", "TEST",
              "PROGRAM", "RESULT"}
ASSIGN_KEYS = {"NAME", "SYMLINK", "OWNER", "GROUP", "MODE", "SECLABEL", "ATTR", "SYSCTL", "ENV", "TAG",
               "RUN", "LABEL", "GOTO", "IMPORT", "OPTIONS"}
NEEDS_ATTR = {"ATTR", "ATTRS", "SYSCTL", "ENV", "CONST", "SECLABEL", "IMPORT"}
TOKEN = re.compile(r'\s*(?P<key>[A-Z]+)(?:\{(?P<attr>[^}]*)\})?\s*(?P<op>==|!=|\+=|-=|:=|=)\s*'
                   r'"(?P<value>(?:[^"\\]|\\.)*)"\s*(?P<sep>,?)\s*')


def parse_udev_rules(text: str) -> list[list[tuple[str, str | None, str, str]]]:
    """Each rule as ``[(key, attr, op, value), ...]``; raises ValueError, naming
    the line, on anything udev(7) does not allow. A check of the syntax and
    of which operator each key takes, not of what udev would do."""
    rules = []
    lines = text.replace("\\\n", "").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pos, tokens = 0, []
        while pos < len(line):
            m = TOKEN.match(line, pos)
            if m is None:
                raise ValueError(f"line {number}: cannot parse from column {pos + 1}: {line[pos:]!r}")
            key, attr, op, value = m["key"], m["attr"], m["op"], m["value"]
            if op in ("==", "!=") and key not in MATCH_KEYS:
                raise ValueError(f"line {number}: {key} cannot be matched (with {op})")
            if op not in ("==", "!=") and key not in ASSIGN_KEYS:
                raise ValueError(f"line {number}: {key} cannot be assigned (with {op})")
            if (key in NEEDS_ATTR) != (attr is not None) and key not in ("RUN", "TEST"):
                raise ValueError(f"line {number}: {key} {'needs' if attr is None else 'takes no'} {{attribute}}")
            if key == "MODE" and not re.fullmatch(r"0?[0-7]{3}", value):
                raise ValueError(f"line {number}: MODE must be octal, not {value!r}")
            if key in ("ATTR", "ATTRS") and attr in ("idVendor", "idProduct") and \
                    not re.fullmatch(r"[0-9a-f]{4}", value):
                raise ValueError(f"line {number}: {attr} is four lower-case hex digits, not {value!r}")
            if key == "SYMLINK" and value.startswith("/"):
                raise ValueError(f"line {number}: SYMLINK is relative to /dev, not {value!r}")
            tokens.append((key, attr, op, value))
            pos = m.end()
            if m["sep"] == "" and pos < len(line):
                raise ValueError(f"line {number}: expected ',' at column {pos + 1}")
        if line.rstrip().endswith(","):
            raise ValueError(f"line {number}: trailing comma")
        if not any(op in ("==", "!=") for _, _, op, _ in tokens):
            raise ValueError(f"line {number}: a rule without a match applies to every device")
        rules.append(tokens)
    return rules


def test_udev_rules_parse_and_name_every_device() -> None:
    rules = parse_udev_rules((SYSTEMD / "99-tablectl.rules").read_text())
    links = {value: rule for rule in rules for key, _, op, value in rule if key == "SYMLINK"}
    assert set(links) == {"tablectl/shoe", "tablectl/shuffler", "tablectl/dice_cup"}
    groups = {key: value for key, _, _, value in links["tablectl/shoe"]}
    assert groups["SUBSYSTEM"] == "tty" and groups["GROUP"] == "dialout" and groups["MODE"] == "0660"
    dice = {key: value for key, _, _, value in links["tablectl/dice_cup"]}
    assert dice["SUBSYSTEM"] == "usb" and dice["ENV"] == "usb_device" and dice["GROUP"] == "tablectl"
    assert dice["MODE"] == "0660"
    # every group a rule hands a device to is one the controller's unit runs as or joins
    used = {value for rule in rules for key, _, _, value in rule if key == "GROUP"}
    unit = _unit("tablectl@.service")
    assert used <= {*_values(unit, "Service", "SupplementaryGroups")[0].split(), *_values(unit, "Service", "Group")}


@pytest.mark.parametrize("line, why", [
    ('SUBSYSTEM="tty", SYMLINK+="x"', "SUBSYSTEM cannot be assigned"),
    ('SUBSYSTEM=="tty", GROUP=="dialout"', "GROUP cannot be matched"),
    ('SUBSYSTEM=="tty" SYMLINK+="x"', "expected ','"),
    ('SUBSYSTEM=="tty", MODE="rw"', "MODE must be octal"),
    ('SUBSYSTEM=="tty", ATTRS{idVendor}=="0403x"', "four lower-case hex digits"),
    ('SUBSYSTEM=="tty", SYMLINK+="/dev/x"', "relative to /dev"),
    ('SUBSYSTEM=="tty", SYMLINK+="x",', "trailing comma"),
    ('GROUP="dialout"', "without a match"),
    ('SUBSYSTEM=="tty", ATTRS=="x"', "needs {attribute}"),
    ('SUBSYSTEM=="tty", SYMLINK+=x', "cannot parse"),
])
def test_the_udev_parser_refuses_mistakes(line: str, why: str) -> None:
    with pytest.raises(ValueError, match=re.escape(why)):
        parse_udev_rules(line)


@pytest.mark.skipif(shutil.which("udevadm") is None or subprocess.run(
    ["udevadm", "verify", "--help"], capture_output=True).returncode != 0,
    reason="udevadm verify needs systemd 253 or newer (Debian 12 has 252): the parser above checks the syntax")
def test_udevadm_verify_accepts_the_rules() -> None:
    proc = subprocess.run(["udevadm", "verify", "--resolve-names=never", str(SYSTEMD / "99-tablectl.rules")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# -- the watchdog, unit by unit ------------------------------------------------------------

def test_watchdog_interval_is_half_of_watchdog_usec() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "400000", "WATCHDOG_PID": str(os.getpid())}) == 0.2
    assert watchdog_interval({}) is None                        # no WatchdogSec=: no tick at all
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "400000", "WATCHDOG_PID": "1"}) is None  # another process's


def _health(**changes) -> Health:
    base = {"running": True, "mqtt_connected": True, "devices": {"shoe": "online", "shuffler": "online"},
            "undelivered_in_flight": 0, "drivers_alive": {"shoe": True, "shuffler": True},
            "publisher_alive": True}
    return Health(**{**base, **changes})


def test_watchdog_problems_gate_on_devices_and_the_mqtt_thread_not_the_broker() -> None:
    assert watchdog_problems(_health()) == []
    # a broker outage is store and forward: no restart for it
    assert watchdog_problems(_health(mqtt_connected=False)) == []
    assert watchdog_problems(_health(drivers_alive={"shoe": False, "shuffler": True},
                                     devices={"shoe": "offline", "shuffler": "online"})) == [
        "shoe not heard (offline)"]
    assert watchdog_problems(_health(publisher_alive=False)) == ["MQTT client stopped"]
    assert watchdog_problems(_health(running=False)) == ["table loop stopped"]


@pytest.fixture
def notify_socket(monkeypatch: pytest.MonkeyPatch) -> Iterator[NotifySocket]:
    sock = NotifySocket()
    monkeypatch.setenv("NOTIFY_SOCKET", sock.address)
    try:
        yield sock
    finally:
        sock.close()


def test_watchdog_tick_pings_when_healthy_and_says_why_not(notify_socket: NotifySocket) -> None:
    dog = _Watchdog("bac-01")
    dog.tick(_health())
    first = notify_socket.receive(5)
    assert "WATCHDOG=1" in first and "STATUS=bac-01: shoe online, shuffler online; MQTT connected" in first
    dog.tick(_health())
    assert notify_socket.receive(5) == ["WATCHDOG=1"]  # STATUS only when it changes
    dog.tick(_health(drivers_alive={"shoe": False, "shuffler": True}))
    assert notify_socket.receive(5) == ["STATUS=bac-01: watchdog withheld: shoe not heard (online)"]
    dog.tick(_health(drivers_alive={"shoe": False, "shuffler": True}))
    assert notify_socket.receive(0.5) is None  # nothing new to say, and no ping


def test_notify_without_systemd_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert notify("READY=1") is False


# -- the watchdog, end to end --------------------------------------------------------------

class NotifySocket:
    """The receiving end of sd_notify, as systemd holds it: an abstract Unix datagram socket."""

    def __init__(self) -> None:
        self.name = f"tablectl-test-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind("\0" + self.name)
        self.seen: list[tuple[float, list[str]]] = []

    @property
    def address(self) -> str:
        return "@" + self.name

    def receive(self, timeout: float) -> list[str] | None:
        """The next datagram's lines, or None when nothing came within ``timeout``."""
        self.sock.settimeout(max(timeout, 0.001))
        try:
            data = self.sock.recv(4096)
        except TimeoutError:
            return None
        lines = data.decode().splitlines()
        self.seen.append((time.monotonic(), lines))
        return lines

    def wait_for(self, predicate: Callable[[list[str]], bool], timeout: float, what: str) -> list[str]:
        deadline = time.monotonic() + timeout
        while (remaining := deadline - time.monotonic()) > 0:
            lines = self.receive(remaining)
            if lines is not None and predicate(lines):
                return lines
        raise AssertionError(f"no {what} within {timeout} s; last messages: {self.recent()}")

    def quiet(self, window: float, bad: Callable[[list[str]], bool]) -> list[list[str]]:
        """Everything received within ``window``; fails at once on a ``bad`` one."""
        got = []
        deadline = time.monotonic() + window
        while (remaining := deadline - time.monotonic()) > 0:
            lines = self.receive(remaining)
            if lines is not None:
                assert not bad(lines), f"unexpected {lines} within {window} s; last messages: {self.recent()}"
                got.append(lines)
        return got

    def recent(self) -> list[list[str]]:
        return [lines for _, lines in self.seen[-8:]]

    def close(self) -> None:
        self.sock.close()


def ping(lines: list[str]) -> bool:
    return "WATCHDOG=1" in lines


def status(text: str) -> Callable[[list[str]], bool]:
    return lambda lines: any(line.startswith("STATUS=") and text in line for line in lines)


class Sim:
    """`tablectl sim` in its own process; its stdout is drained by a thread."""

    def __init__(self, config: Path) -> None:
        self.proc = subprocess.Popen([*TABLECTL, "sim", "--config", str(config), "--seed", "5", "--pace", "fast"],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self.up = threading.Event()
        threading.Thread(target=self._drain, daemon=True).start()
        assert self.up.wait(30), f"tablectl sim did not start: {self.lines[-20:]}"

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)
            if line.startswith("tablectl sim: shoe at"):
                self.up.set()

    def kill(self) -> None:
        """Power off the devices: no goodbye, no more heartbeats."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


def _stop(proc: subprocess.Popen | None) -> None:
    if proc is not None and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def _table_config(tmp_path: Path, port: int) -> Path:
    """The simulated baccarat table on this test's broker, devices under tmp_path,
    and a heartbeat timeout of 2 s (the simulator beats every second)."""
    path = sim_config_file(tmp_path, port, **{"heartbeat_timeout = 3.0": "heartbeat_timeout = 2.0"})
    assert path.read_text().count("heartbeat_timeout = 2.0") == 2
    return path


def test_watchdog_pings_only_while_the_devices_are_alive(tmp_path: Path, broker: RunningBroker,
                                                        notify_socket: NotifySocket) -> None:
    config = _table_config(tmp_path, broker.port)
    env = {**os.environ, "NOTIFY_SOCKET": notify_socket.address, "WATCHDOG_USEC": str(WATCHDOG_USEC)}
    env.pop("WATCHDOG_PID", None)
    log = (tmp_path / "run.log").open("w")
    sim = Sim(config)
    run = None
    try:
        run = subprocess.Popen([*TABLECTL, "run", "--config", str(config)], env=env,
                               stdout=log, stderr=subprocess.STDOUT)
        first = notify_socket.wait_for(lambda lines: any(line.startswith(("READY=1", "WATCHDOG=1"))
                                                         for line in lines), 60, "READY=1")
        assert "READY=1" in first, f"WATCHDOG=1 before READY=1: {notify_socket.recent()}"

        # Alive: the devices are heard within a heartbeat, then a ping every WATCHDOG_USEC / 2.
        notify_socket.wait_for(ping, 15, "WATCHDOG=1 once the devices are heard")
        start = time.monotonic()
        for _ in range(5):
            notify_socket.wait_for(ping, 5 * TICK, f"a WATCHDOG=1 every {TICK} s")
        took = time.monotonic() - start
        assert took >= 4 * TICK, f"5 pings in {took:.2f} s: more often than every {TICK} s"

        # Hung: the simulator is frozen; its ports stay open but say nothing. After
        # the heartbeat timeout (2 s) the devices are dead and the pings stop.
        os.kill(sim.proc.pid, signal.SIGSTOP)
        try:
            notify_socket.wait_for(status("watchdog withheld"), 10, "STATUS=... watchdog withheld")
            notify_socket.quiet(6 * TICK, bad=ping)  # > 2 tick intervals without a ping: systemd would act
        finally:
            os.kill(sim.proc.pid, signal.SIGCONT)
        notify_socket.wait_for(ping, 10, "WATCHDOG=1 after the devices spoke again")

        # Unplugged: the device nodes go (as /dev/tablectl/shoe does when its USB
        # adapter is pulled) and the simulator's process ends; no more pings.
        # (The links go first: a stale link to a freed /dev/pts/N could lead to
        # whatever process gets that pseudo-terminal next.)
        for name in ("shoe", "shuffler"):
            (tmp_path / "dev" / name).unlink()
        sim.kill()
        notify_socket.wait_for(status("watchdog withheld"), 10, "STATUS=... watchdog withheld")
        notify_socket.quiet(6 * TICK, bad=ping)

        # Plugged back: new devices at the same paths; the drivers reopen them and the pings resume.
        sim = Sim(config)
        notify_socket.wait_for(ping, 20, "WATCHDOG=1 after the devices came back")

        # A broker outage is not a dead publisher: the journal holds the events, the pings go on.
        broker.stop()
        notify_socket.wait_for(status("MQTT reconnecting"), 15, "STATUS=... MQTT reconnecting")
        for _ in range(3):
            notify_socket.wait_for(ping, 5 * TICK, "WATCHDOG=1 during a broker outage")

        run.send_signal(signal.SIGTERM)
        notify_socket.wait_for(lambda lines: "STOPPING=1" in lines, 10, "STOPPING=1")
        assert run.wait(30) == 0
    finally:
        _stop(run)
        sim.kill()
        log.close()
        if run is not None and run.returncode not in (0, None):
            print((tmp_path / "run.log").read_text())
