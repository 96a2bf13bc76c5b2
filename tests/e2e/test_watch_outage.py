"""`tablectl watch` when its broker goes away (issue 24): one line that it went away and is
retrying, one when it is back, nothing in between however long paho retries (it printed
``ERROR ... Client is not connected`` every 2 s after the demo's broker stopped)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time


def test_watch_says_once_that_the_broker_went_away_and_once_that_it_is_back(broker):
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "watch", "--broker",
                             f"{broker.host}:{broker.port}", "--view", "lines"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    seen = threading.Condition()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            with seen:
                lines.append(line.rstrip("\n"))
                seen.notify_all()
    threading.Thread(target=read, daemon=True).start()

    def wait_for(text: str) -> None:
        with seen:
            assert seen.wait_for(lambda: any(text in line for line in lines), 30), lines

    try:
        wait_for("watching casino/+ on")
        broker.stop()
        wait_for("went away; retrying until it is back")
        time.sleep(7)          # paho retries every second or two meanwhile: none of them may say so
        broker.start()
        wait_for(f"{broker.port} is back")
    finally:
        proc.terminate()
        proc.wait(30)
    outage = [line for line in lines if "watch: the broker" in line]
    assert outage == [f"watch: the broker at {broker.host}:{broker.port} went away; retrying until it is back",
                      f"watch: the broker at {broker.host}:{broker.port} is back"], lines
    assert not [line for line in lines if "ERROR" in line or "Traceback" in line], lines
