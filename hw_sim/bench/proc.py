"""Child processes for `tablectl bench`: start them, read their lines, time
their READY, and read what they cost from /proc.

Nothing here knows the simulator or the controller: the benchmark's
workers and the controller it measures are ordinary child processes that print one line per milestone
(``ready``, ``paused``, ``done``, progress lines) on stdout.

Clocks: every timestamp is ``time.monotonic_ns()`` (CLOCK_MONOTONIC), which
all processes on one Linux machine share, so a time taken in one process can
be subtracted from a time taken in another.
"""

from __future__ import annotations

import contextlib
import glob
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

CLK_TCK = os.sysconf("SC_CLK_TCK")


class BenchError(RuntimeError):
    """The benchmark could not measure something; the message says what and why."""


# -- /proc -----------------------------------------------------------------------

def cpu_seconds(pid: int) -> float | None:
    """User + system CPU of a process so far, from /proc/<pid>/stat (all its
    threads, those that ended included; resolution 1/CLK_TCK)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def cpu_seconds_precise(pid: int) -> float | None:
    """On-CPU time of a process's live threads in nanosecond resolution
    (/proc/<pid>/task/*/schedstat), for short windows such as idle CPU.
    Falls back to :func:`cpu_seconds` where schedstat is missing."""
    total, found = 0, False
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            total += int(Path(path).read_text().split()[0])
            found = True
        except (OSError, ValueError, IndexError):
            continue
    return total / 1e9 if found else cpu_seconds(pid)


def status_kb(pid: int, key: str) -> int | None:
    """A ``kB`` field of /proc/<pid>/status: ``VmHWM`` (peak RSS), ``VmRSS``."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def machine() -> dict:
    """What the figures were measured on."""
    model = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model", "Hardware")):
                model = line.split(":", 1)[1].strip()
                break
    mem_kb = None
    with contextlib.suppress(OSError, ValueError, IndexError):
        mem_kb = int(Path("/proc/meminfo").read_text().split()[1])
    return {"cpus": os.cpu_count(), "cpu_model": model, "memory_gb": round(mem_kb / 2**20, 1) if mem_kb else None,
            "python": sys.version.split()[0], "kernel": os.uname().release,
            "load_average": [round(x, 2) for x in os.getloadavg()]}


# -- READY=1 -----------------------------------------------------------------------

class ReadySocket:
    """A systemd-style notify socket for one child: the time READY=1 arrived.

    The child gets ``NOTIFY_SOCKET=<path>`` and sends ``READY=1`` exactly as
    it does under systemd (controller.table.sdnotify); a thread blocked on the
    socket timestamps the datagram as it arrives.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._sock.bind(str(path))
        self._ready_ns: int | None = None
        self._event = threading.Event()
        threading.Thread(target=self._listen, name=f"ready-{path.name}", daemon=True).start()

    def _listen(self) -> None:
        while True:
            try:
                data = self._sock.recv(4096)
            except OSError:
                return
            now = time.monotonic_ns()
            if b"READY=1" in data.split(b"\n") and self._ready_ns is None:
                self._ready_ns = now
                self._event.set()

    def wait(self, timeout: float) -> int | None:
        """The monotonic_ns at which READY=1 arrived, or None."""
        self._event.wait(timeout)
        return self._ready_ns

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


# -- workers -------------------------------------------------------------------------

class Worker:
    """A child process that reports milestones as lines on stdout.

    Lines are timestamped by a reader thread as they arrive. ``on_line`` (if
    set) sees every line on that thread; :meth:`expect` waits for one.
    stderr goes to ``<log_dir>/<name>.log`` so a failure can be explained.
    """

    def __init__(self, name: str, argv: Sequence[str], log_dir: Path, *, env: dict | None = None,
                 on_line: Callable[[int, str], None] | None = None, cwd: Path | None = None) -> None:
        self.name = name
        self.argv = list(argv)
        self.log_path = log_dir / f"{name}.log"
        self.on_line = on_line
        self._lines: queue.Queue[tuple[int, str] | None] = queue.Queue()
        self._log = self.log_path.open("w")
        self.started_ns = time.monotonic_ns()
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._log, text=True, bufsize=1, cwd=cwd,
                                     env={**os.environ, **(env or {})})
        self._reader = threading.Thread(target=self._read, name=f"lines-{name}", daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            now = time.monotonic_ns()
            line = line.rstrip("\n")
            if self.on_line is not None:
                try:
                    self.on_line(now, line)
                except Exception as exc:  # a bug in a callback must not hang the bench
                    print(f"bench: {self.name}: line handler failed: {exc}", file=sys.stderr)
            self._lines.put((now, line))
        self._lines.put(None)

    def expect(self, prefix: str, timeout: float) -> tuple[int, str]:
        """Wait for a line starting with ``prefix``; raise if the child ends first."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BenchError(f"{self.name}: no {prefix!r} within {timeout:.0f} s{self.tail()}")
            try:
                item = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if item is None:
                self._lines.put(None)
                raise BenchError(f"{self.name} exited ({self.proc.wait()}) before {prefix!r}{self.tail()}")
            if item[1].startswith(prefix):
                return item

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        with contextlib.suppress(BrokenPipeError, OSError):
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()

    def send_signal(self, sig: int) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(sig)

    def stop(self, timeout: float = 15.0, sig: int = signal.SIGTERM) -> int:
        """Ask the child to finish (SIGTERM), wait, kill it if it does not."""
        self.send_signal(sig)
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait(5)
        self._reader.join(5)
        with contextlib.suppress(OSError):
            if self.proc.stdin:
                self.proc.stdin.close()
        self._log.close()
        return rc

    def tail(self, lines: int = 15) -> str:
        """The end of the child's stderr, for an error message."""
        with contextlib.suppress(OSError, ValueError):   # ValueError: stopped, its log closed already
            self._log.flush()
        with contextlib.suppress(OSError):
            text = self.log_path.read_text(errors="replace").strip().splitlines()[-lines:]
            if text:
                return "\n  " + "\n  ".join(text)
        return ""


def python_argv(module: str, *args: str) -> list[str]:
    return [sys.executable, "-m", module, *args]
