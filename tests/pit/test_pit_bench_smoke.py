"""`tablectl bench --only pit --smoke`: the pit part of the benchmark works and reports every figure
(hw_sim/bench/pit.py; docs/performance.md, "The pit board's streams and the archive").

A smoke test only: tiny counts, and nothing is asserted about any time or rate. What is asserted
is the shape (every figure a number), that the browsers that read got patches and the board's
threads did not grow with them, and that nothing published went unarchived.
"""

from __future__ import annotations

import json
import subprocess
import sys
from numbers import Real

import pytest
from postgres_support import _bin_dir

from hw_sim.broker import mosquitto_path

pytestmark = pytest.mark.skipif(mosquitto_path() is None or _bin_dir() is None,
                                reason="mosquitto or PostgreSQL is not installed")


def _number(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


@pytest.mark.timeout(300)
def test_the_pit_part_reports_every_figure_for_every_run() -> None:
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "bench", "--only", "pit", "--smoke", "--json"],
                          capture_output=True, text=True, timeout=280)
    assert proc.returncode == 0, proc.stderr[-3000:]
    pit = json.loads(proc.stdout)["pit"]
    runs = pit["runs"]
    assert [(r["streams"], r["mode"]) for r in runs] == [(0, "none"), (5, "read"), (5, "unread")]
    for r in runs:
        for key in ("lag_start", "lag_end", "lag_slope_per_s", "pit_cpu_pct", "cpu_to_no_streams", "events_per_s"):
            assert _number(r[key]), (r["mode"], key)
        for key in ("p50", "p99", "max"):
            assert _number(r["archive_latency_ms"][key]), (r["mode"], key)
        assert r["archive_latency_ms"]["events"] > 0
        assert _number(r["page_ms"]["p50"]) and r["page_ms"]["failed"] == 0
        assert _number(r["api_ms"]["p50"]) and r["api_ms"]["failed"] == 0
        assert r["pit_threads_max"] == runs[0]["pit_threads_max"], "the board's threads grew with its browsers"
    read, unread = runs[1], runs[2]
    assert _number(read["patches_per_stream_per_s"]) and read["patches_per_stream_per_s"] > 0
    assert read["streams_closed_by_board"] == 0 and read["streams_refused"] == 0
    assert unread["streams_closed_by_board"] in range(6)
