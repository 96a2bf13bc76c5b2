"""Fixtures of the end-to-end tests."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sim_table import SimTable

SIM_TABLE_PROCESS = Path(__file__).resolve().parents[1] / "sim_table_process.py"


@pytest.fixture
def table_factory(broker, tmp_path):
    """``table_factory(**kw)`` -> a SimTable on the test's broker, stopped after the test."""
    made: list[SimTable] = []

    def make(**kw) -> SimTable:
        t = SimTable(broker, tmp_path / f"t{len(made)}", **kw)
        made.append(t)
        return t
    yield make
    for t in made:
        t.stop()


@pytest.fixture
def table_process(broker, tmp_path: Path) -> Iterator[Callable[..., str]]:
    """``table_process(game=None, seed=1, table_id=None)`` -> the table id of a simulated table in
    a process of its own (tests/sim_table_process.py), dealing on the test's broker once this
    returns, stopped after the test. For a test that needs more tables than the one
    ``table_factory`` table: gpiozero's mock pins are one set per process, so a second SimTable in
    this process would press the first one's buttons. The table stops when its standard input
    closes, so it also ends with a test process that dies."""
    procs: list[subprocess.Popen] = []

    def start(game: str | None = None, seed: int = 1, table_id: str | None = None) -> str:
        argv = [sys.executable, str(SIM_TABLE_PROCESS), "--port", str(broker.port), "--seed", str(seed),
                "--dir", str(tmp_path / f"{table_id or game or 'baccarat'}-{seed}")]
        argv += ["--game", game] if game else []
        argv += ["--id", table_id] if table_id else []
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        procs.append(proc)
        line = proc.stdout.readline()   # pytest-timeout bounds a table that never starts
        assert line.startswith("ready "), f"the {table_id or game} table did not start (exit {proc.poll()})"
        return line.split()[1]

    yield start
    for proc in procs:
        proc.stdin.close()
    for proc in procs:
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
