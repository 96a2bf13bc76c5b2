"""Two controllers, one table id, two journals (issue 13, defect 5): before, seqs 1-3 went out
twice with different payloads and the two took each other's session over for as long as both
ran. Now each status carries its journal and process start; a controller that, after its first
session, finds this table published by another journal stops if it is the younger (exit 2, no
offline status: the table is the other's), and the older raises a critical alarm and goes on.
Real processes and a real Mosquitto."""

from __future__ import annotations

import signal
import subprocess
import sys

from mqtt_support import Subscriber
from sim_table import sim_config_file

TABLECTL = [sys.executable, "-m", "controller.cli"]


def _start(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen(TABLECTL + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_second_controller_with_another_journal_stops_and_the_first_deals_on(tmp_path, broker):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = sim_config_file(tmp_path / "a", broker.port)
    second = sim_config_file(tmp_path / "b", broker.port)   # same table id; its own journal, no devices
    status = Subscriber(broker.host, broker.port, "casino/bac-sim-01/status")
    alarms = Subscriber(broker.host, broker.port, "casino/bac-sim-01/event/alarm")
    results = Subscriber(broker.host, broker.port, "casino/bac-sim-01/event/result")
    sim = _start(["sim", "--config", str(first), "--seed", "5", "--pace", "fast"])
    run_a = _start(["run", "--config", str(first)])
    run_b = None
    try:
        birth_a = status.wait_for(lambda m: m.json().get("online") is True, 30).json()
        results.get(30)
        run_b = _start(["run", "--config", str(second)])
        assert run_b.wait(60) == 2
        err = run_b.stderr.read()
        assert f"another controller publishes as table bac-sim-01 on 127.0.0.1:{broker.port} " \
               f"(journal {birth_a['journal']}," in err, err
        assert "this one stops so that no seq goes out twice" in err and "Traceback" not in err
        alarm = alarms.wait_for(lambda m: m.json()["data"]["code"] == "another_controller", 30).json()["data"]
        assert alarm["severity"] == "critical"
        # The first deals on; once its client is back (paho's reconnect backoff) the table's status
        # is its own birth, online, and stays so.
        back = status.wait_for(lambda m: m.json()["online"] is True and m.json()["journal"] == birth_a["journal"]
                               and m.json()["next_seq"] > birth_a["next_seq"], 30).json()
        results.drain()
        for _ in range(3):
            results.get(30)
        assert run_a.poll() is None
        fresh = Subscriber(broker.host, broker.port, "casino/bac-sim-01/status")
        now = fresh.get(10).json()
        fresh.close()
        assert now == back or (now["online"] is True and now["journal"] == birth_a["journal"]), now
    finally:
        for proc in (run_b, run_a, sim):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(30)
        for sub in (status, alarms, results):
            sub.close()
