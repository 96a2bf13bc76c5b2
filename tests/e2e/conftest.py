"""Fixtures of the end-to-end tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sim_table import SimTable
from sim_table_process import TableProcess


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
    """``table_process(game=None, seed=1, table_id=None, pace=None)`` -> the table id of a simulated table in
    a process of its own (tests/sim_table_process.py), dealing on the test's broker once this
    returns, stopped after the test. For a test that needs more tables than the one
    ``table_factory`` table: gpiozero's mock pins are one set per process, so a second SimTable in
    this process would press the first one's buttons. The table stops when its standard input
    closes, so it also ends with a test process that dies."""
    procs: list[TableProcess] = []

    def start(game: str | None = None, seed: int = 1, table_id: str | None = None, pace: float | None = None) -> str:
        folder = tmp_path / f"{table_id or game or 'baccarat'}-{seed}"
        procs.append(TableProcess(broker.port, folder, game=game, seed=seed, table_id=table_id, pace=pace))
        return procs[-1].id

    yield start
    for proc in procs:  # all told first: they stop together
        proc.stop()
    for proc in procs:
        proc.close()
