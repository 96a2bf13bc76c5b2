"""Fixtures of the pit service's tests: a service started on the test's broker and database."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from archive_support import FAST, ArchiveView, FakeTable

from controller.pit.service import PitService


@pytest.fixture
def archive_view(pg_url: str) -> Iterator[ArchiveView]:
    view = ArchiveView(pg_url)
    yield view
    view.close()


@pytest.fixture
def pit_factory(pg_url: str) -> Iterator[Callable[..., PitService]]:
    """``pit_factory(broker, **kw)`` -> a started PitService on this test's database, stopped after the test."""
    made: list[PitService] = []

    def make(broker, *, client_id: str | None = None, db_url: str | None = pg_url, start: bool = True,
             **kw) -> PitService:
        kw.setdefault("tuning", FAST)
        service = PitService(broker.host, broker.port, "casino", db_url, kw.pop("group", "pit-test"),
                             client_id or f"pit-test-{len(made) + 1}", **kw)
        made.append(service)
        return service.start() if start else service

    yield make
    for service in made:
        service.stop()


@pytest.fixture
def fake_table(broker) -> Iterator[Callable[..., FakeTable]]:
    made: list[FakeTable] = []

    def make(table: str = "fake-01", **kw) -> FakeTable:
        fake = FakeTable(broker.host, broker.port, table, **kw)
        made.append(fake)
        return fake

    yield make
    for fake in made:
        fake.close()
