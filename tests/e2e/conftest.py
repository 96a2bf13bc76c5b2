"""Fixtures of the end-to-end tests."""

import pytest
from sim_table import SimTable


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
