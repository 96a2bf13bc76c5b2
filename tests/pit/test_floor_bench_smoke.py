"""`tablectl bench --only floor --smoke`: the floor part of the benchmark (issue 21.5) works and
reports every figure (hw_sim/bench/pit_floor.py; docs/performance.md, "The pit at a floor's scale").

A smoke test only: tiny counts, and nothing is asserted about any time or rate. What is asserted is
the shape (every figure a number, for 1 and 2 services), that the board's page was read, and that
nothing published was lost, duplicated or left in a gap.
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
def test_the_floor_part_reports_every_figure_for_one_and_two_services() -> None:
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "bench", "--only", "floor", "--smoke", "--json"],
                          capture_output=True, text=True, timeout=280)
    assert proc.returncode == 0, proc.stderr[-3000:]
    floor = json.loads(proc.stdout)["floor"]
    runs = floor["runs"]
    assert [(r["kind"], r["services"]) for r in runs] == [("floor", 1), ("rate", 1), ("floor", 2), ("rate", 2)]
    for r in runs:
        for key in ("published_per_s", "archived_per_s", "lag_slope_per_s", "cpu_us_per_event", "pit_cpu_pct",
                    "board_cpu_pct", "cpu_per_event_to_1_service"):
            assert _number(r[key]), (r["kind"], r["services"], key)
        for key in ("p50", "p99"):
            assert _number(r["commit_ms"][key]), (r["kind"], key)
        assert r["commit_ms"]["events"] > 0
        if r["kind"] == "rate":   # a human pace's few events in a smoke's 3 s may all reach the page after it
            assert r["page_ms"]["samples"] > 0 and _number(r["page_ms"]["p50"]) and _number(r["page_ms"]["p99"]), r
        assert r["published"] > 0 and r["settled_s"] is not None
        assert (r["lost"], r["duplicates"], r["gaps_left"]) == (0, 0, 0), r
        assert r["gaps_opened"] is not None and r["replay_requests"] is not None
    assert set(floor["saturation"]) == {"1", "2"}
    assert runs[0]["cpu_per_event_to_1_service"] == 1.0


@pytest.mark.parametrize(("args", "error"), [
    (["--floor-tables", "16,x"], "--floor-tables: a comma list of whole numbers above 0, not '16,x'"),
    (["--floor-rates", "0"], "--floor-rates: a comma list of whole numbers above 0, not '0'"),
    (["--floor-services", ""], "--floor-services: a comma list of whole numbers above 0, not ''"),
    (["--floor-rate-tables", "0"], "--floor-rate-tables: a whole number above 0, not 0"),
    (["--floor-seconds", "-1"], "--floor-seconds: seconds above 0, not -1"),
    (["--floor-warmup", "-2"], "--floor-warmup: seconds, 0 or more, not -2"),
])
def test_a_bad_floor_option_is_one_line_before_anything_starts(args: list[str], error: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "bench", "--only", "floor", *args],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert proc.stderr.strip().splitlines() == [f"tablectl bench: {error}"], proc.stderr
