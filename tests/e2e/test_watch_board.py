"""`tablectl watch` with no ``--table``, on a terminal: every table at a glance, one line each,
an alarming table marked ``!!`` and shown white on red. Three real simulated tables on a real
Mosquitto, and a real `tablectl watch` process whose stdout is a pseudo-terminal 200 columns
wide, read as the screen would show it."""

from __future__ import annotations

import codecs
import fcntl
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable

from mqtt_support import Subscriber

from controller.pit.lines import result_summary
from controller.pit.watch.screen import ALARM, CLEAR_BELOW, CLEAR_LINE, HOME

TABLECTL = [sys.executable, "-m", "controller.cli"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """A process with its stdout on a pseudo-terminal; what it writes is read on a thread."""

    def __init__(self, argv: list[str], cols: int = 200, rows: int = 60) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {"TERM": "xterm"}
        self.proc = subprocess.Popen(argv, stdout=slave, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                     env=env, text=True)
        os.close(slave)
        self.master = master
        self.text = ""
        self.ended = False
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the process closed its end
                chunk = b""
            with self.cond:
                if not chunk:
                    self.ended = True
                    self.cond.notify_all()
                    return
                self.text += decoder.decode(chunk)
                self.cond.notify_all()

    def frame(self) -> list[str]:
        """The last whole frame, as its lines with their colour (cleared-line codes taken off)."""
        for part in reversed(self.text.split(HOME)):
            if CLEAR_BELOW in part:
                body = part.split(CLEAR_BELOW)[0]
                return [line.replace(CLEAR_LINE, "") for line in body.replace("\r\n", "\n").split("\n")]
        return []

    def wait(self, predicate: Callable[[list[str]], bool], timeout: float, what: str) -> list[str]:
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                frame = self.frame()
                if predicate(frame):
                    return frame
                left = end - time.monotonic()
                if left <= 0 or self.ended:
                    shown = "\n".join(ANSI.sub("", line) for line in frame)
                    raise AssertionError(f"no frame with {what} within {timeout} s; the last:\n{shown}")
                self.cond.wait(left)

    def wait_text(self, text: str, timeout: float) -> None:
        with self.cond:
            if not self.cond.wait_for(lambda: text in self.text or self.ended, timeout) or text not in self.text:
                raise AssertionError(f"{text!r} not shown within {timeout} s; shown: {self.text[-300:]!r}")

    def stop(self) -> tuple[int, str, str]:
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(30)
        with self.cond:
            self.cond.wait_for(lambda: self.ended, 10)
            return code, self.text, self.proc.stderr.read()


def plain(line: str) -> str:
    return ANSI.sub("", line)


def rows(frame: list[str], ids: list[str]) -> dict[str, tuple[str, str]]:
    """Table id -> (its line as shown, its line with the colour codes)."""
    out = {}
    for line in frame[2:]:
        words = plain(line).split()
        table = words[1] if words[:1] == ["!!"] else words[0] if words else ""
        if table in ids:
            out[table] = (plain(line), line)
    return out


def pace(stamps: list[float]) -> str:
    """Hands per hour as the board has them (docs/pit-board.md) for results all within the hour:
    results less one over the time from the first to the last, to one place; ``-`` for fewer than
    two, and written without ``.0`` as the board writes it."""
    if len(stamps) < 2 or max(stamps) == min(stamps):
        return "-"
    value = round((len(stamps) - 1) * 3600.0 / (max(stamps) - min(stamps)), 1)
    return str(int(value)) if value == int(value) else f"{value:.1f}"


def test_every_table_at_a_glance_with_an_alarm_highlighted(broker, table_factory, table_process) -> None:
    """bac-sim-01 runs in this process, its dealer told not to void the round a misread card faults:
    its alarm stays open, and it is paused so its pace is exact. bac-sim-02 and -03 each run in a
    process of their own (the table_process fixture: one process holds one simulated table's mock
    pins)."""
    ids = ["bac-sim-01", "bac-sim-02", "bac-sim-03"]
    results = Subscriber(broker.host, broker.port, "casino/+/event/result")
    watch = Terminal([*TABLECTL, "watch", "--broker", f"{broker.host}:{broker.port}"])
    try:
        watch.wait_text("watching casino/+ on", 30)   # subscribed: it will see every event from now on
        # Paced: two tables dealing flat out publish faster than a watch on two busy cores reads, and
        # the broker drops what overflows its queue for the watch (GAP lines), bac-sim-01's alarm too.
        for n, table in enumerate(ids[1:], start=2):
            assert table_process(seed=n, table_id=table, pace=0.05) == table
        faulty = table_factory(seed=32, rig={"faults": ["misread@card:6"]})
        faulty.dealer.misbehave.skip_void = True        # the round stays in fault: the alarm stays open
        faulty.start()
        faulty.wait_event("alarm", lambda d: d["code"] == "shoe_misread")
        faulty.dealer.paused.set()
        published: dict[str, list[dict]] = {table: [] for table in ids}

        def settled(frame: list[str]) -> bool:
            for message in results.drain():
                published[message.json()["table"]].append(message.json())
            got = rows(frame, ids)
            if set(got) != set(ids):
                return False
            hands = re.escape(pace([e["ts"] for e in faulty.events("result")]))
            if not re.search(rf"^!!\s+bac-sim-01\s+baccarat\s+online\s+fault\s+\d+\s+{hands}\s+1\s+", got[ids[0]][0]):
                return False
            for table in ids[1:]:
                shown = re.search(rf"^\s+{table}\s+baccarat\s+online\s+\S+\s+\d+\s+([\d.]+)\s+ok\s+(.+)$",
                                  got[table][0])
                summaries = {result_summary("baccarat", r["data"]) for r in published[table]}
                if shown is None or float(shown[1]) <= 0 or shown[2] not in summaries:
                    return False
            return True

        frame = watch.wait(settled, 90, "the three tables, bac-sim-01 alarming, the others dealing")
        assert plain(frame[0]).startswith(f"watching casino/+ on {broker.host}:{broker.port}  |  3 tables, "
                                          f"1 needs attention  |  ")
        got = rows(frame, ids)
        assert got["bac-sim-01"][1].startswith(ALARM + "!!")                     # loud: white on red
        assert not any(got[table][1].startswith("\x1b") for table in ids[1:])
        recent = [plain(line) for line in frame[frame.index("recent:") + 1:]] if "recent:" in frame else []
        # the alarm with the action it asks for, before its message
        assert any(re.search(r" bac-sim-01 ALARM fault shoe_misread \| do: [^|]*void the round[^|]* \| round 1: ", line)
                   for line in recent), "\n".join(recent)
    finally:
        code, text, err = watch.stop()
        results.close()
    assert code == 0, err
    assert "Traceback" not in err
    assert re.search(r"watch: 3 tables; 0 seqs found missing, .* 0 bad messages dropped", plain(text)), text[-500:]
