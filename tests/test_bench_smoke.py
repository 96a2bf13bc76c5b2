"""`tablectl bench --smoke`: the benchmark works and reports every figure.

A smoke test only: tiny counts, and nothing is asserted about any time or
rate (the benchmark is a tool, not a test; CI machines are noisy). What is
asserted is the shape: every figure is a number, every ratio to a baseline
is present, and no event was lost by seq.
"""

from __future__ import annotations

import json
import subprocess
import sys
from numbers import Real

import pytest

from hw_sim.broker import mosquitto_path

pytestmark = pytest.mark.skipif(mosquitto_path() is None, reason="mosquitto is not installed")


def _number(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


@pytest.fixture(scope="module")
def result() -> dict:
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "bench", "--smoke", "--json"],
                          capture_output=True, text=True, timeout=280)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.mark.timeout(300)
def test_latency_figures_and_ratios(result: dict) -> None:
    lat = result["latency"]
    for side in ("controller", "bare", "durable"):
        assert lat[side]["n"] > 0
        for key in ("p50_ms", "p99_ms", "max_ms"):
            assert _number(lat[side][key]), (side, key)
    assert _number(lat["wire"]["ms"]) and lat["wire"]["baudrate"] > 0
    for base in ("ratio_to_bare", "ratio_to_wire", "ratio_to_durable"):
        for key in ("p50", "p99", "max"):
            assert _number(lat[base][key]), (base, key)
    assert set(lat["goals"]) == {"p50", "p99", "p50_durable"}
    assert not [n for n in result["notes"] if "did not pair" in n], result["notes"]


@pytest.mark.timeout(300)
def test_throughput_figures_and_ratios(result: dict) -> None:
    thr = result["throughput"]
    ctl = thr["controller"]
    for key in ("rounds_per_s", "events_per_s", "events_per_round"):
        assert _number(ctl[key]) and ctl[key] > 0, key
    for key in ("controller", "all"):
        assert _number(ctl["cpu_s_per_1000_rounds"][key]), key
    assert ctl["lost"] == 0
    assert _number(thr["bare"]["events_per_s"]) and thr["bare"]["events"] > 0
    assert _number(thr["ratios"]["events_per_s_to_bare"])
    assert _number(thr["ratios"]["controller_cpu_to_bare"])
    # Issue 11: the controller's CPU per event against the bare pipeline's, and its goal.
    assert _number(ctl["cpu_ms_per_event"]) and _number(thr["bare"]["cpu_ms_per_event"])
    assert thr["ratios"]["controller_cpu_per_event_to_bare"] == pytest.approx(
        ctl["cpu_ms_per_event"] / thr["bare"]["cpu_ms_per_event"], rel=0.02, abs=0.01)
    assert thr["goals"]["controller_cpu_per_event"] in (True, False)
    # Issue 21: and against the bare pipeline plus the journal's durable commit per frame.
    assert _number(thr["durable"]["cpu_ms_per_event"]) and thr["durable"]["events"] > 0
    assert thr["ratios"]["controller_cpu_per_event_to_durable"] == pytest.approx(
        ctl["cpu_ms_per_event"] / thr["durable"]["cpu_ms_per_event"], rel=0.02, abs=0.01)
    assert thr["goals"]["controller_cpu_per_event_durable"] in (True, False)
    if thr["journal_tmpfs"] is not None:
        assert _number(thr["ratios"]["rounds_per_s_disk_to_tmpfs"])
    par = thr["parallel"]
    assert par["tables"] == 2 and _number(par["rounds_per_s"]) and _number(par["cpu_s_per_1000_rounds"]["all"])
    assert _number(thr["ratios"]["parallel_to_one"])
    assert "rounds_per_s" in thr["goals"]


@pytest.mark.timeout(300)
def test_many_tables_lose_nothing(result: dict) -> None:
    tables = result["tables"]
    assert [t["n"] for t in tables] == [1, 2]
    for t in tables:
        assert t["lost"] == 0, t
        assert t["journaled"] > 0
        assert _number(t["events_per_s"]) and t["events_per_s"] > 0
        assert _number(t["latency"]["p99_ms"]), t
        assert _number(t["ratio_events_per_s"]) and _number(t["ratio_p99"])


@pytest.mark.timeout(300)
def test_footprint_figures_and_ratios(result: dict) -> None:
    fp = result["footprint"]
    for key in ("peak_rss_mb", "bare_peak_rss_mb", "idle_cpu_pct", "bare_idle_cpu_pct",
                "start_to_ready_s", "bare_start_to_ready_s"):
        assert _number(fp[key]), key
    for key in ("peak_rss", "idle_cpu", "start_to_ready"):
        assert _number(fp["ratios"][key]), key
        assert key in fp["goals"]


@pytest.mark.timeout(300)
def test_machine_and_command_are_recorded(result: dict) -> None:
    assert result["command"].startswith("tablectl bench")
    assert result["machine"]["cpus"] >= 1 and result["machine"]["python"]
    assert result["smoke"] is True
