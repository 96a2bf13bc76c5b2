"""The board's disputes: a round of any date read back from the archive (issue 22), for the board's
pages ``/rounds/<table>``, ``/round/<table>/<n>`` and ``/print/<table>/<n>``.

The queries are controller.pit.rounds'; this is only how the board reaches the archive. Each
request is answered on the board's pool (web ``_slow``: the loop's thread, which writes every
browser's stream, never waits for the database), on a connection of that pool thread's own, in a
read-only transaction with a statement timeout, so a dispute can neither change the archive nor
hold a pool thread for long. A board-only pit service (no ``--db``) reads from ``--read-db``
(a read-only role, docs/pit.md ``pit_read``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from controller.pit.dburl import scrub

STATEMENT_TIMEOUT_MS = 10_000
"""Milliseconds a dispute's query may take before PostgreSQL stops it."""
T = TypeVar("T")


class ArchiveUnavailable(Exception):
    """The archive cannot be read now; one line, without the URL's password."""


class ArchiveReader:
    """Reads rounds from the archive; thread-safe (a connection per thread)."""

    def __init__(self, url: str, *, connect_timeout: float = 5.0) -> None:
        self.url = url
        self.connect_timeout = connect_timeout
        self._local = threading.local()
        self._all: list[Any] = []
        self._lock = threading.Lock()

    def round(self, table: str, number: int) -> dict[str, Any] | None:
        from controller.pit.rounds import find_round

        found = self._read(lambda conn: find_round(conn, table, number))
        return None if found is None else found.to_json()

    def printable(self, table: str, number: int, user: str | None, stylesheet: str) -> str | None:
        from controller.pit.rounds import find_round, printable

        found = self._read(lambda conn: find_round(conn, table, number))
        return None if found is None else printable(found, exported_by=user, stylesheet=stylesheet)

    def round_at(self, table: str, when: datetime) -> int | None:
        from controller.pit.rounds import round_at

        return self._read(lambda conn: round_at(conn, table, when))

    def history(self, table: str, before: int | None) -> dict[str, Any]:
        from controller.pit.rounds import history

        return self._read(lambda conn: history(conn, table, before=before))

    def close(self) -> None:
        """This thread's connection."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def close_all(self) -> None:
        """Every thread's connection (the board stops)."""
        with self._lock:
            conns, self._all = self._all, []
        for conn in conns:
            conn.close()

    def _read(self, query: Callable[[Any], T]) -> T:
        import psycopg

        for attempt in (1, 2):   # a connection the server closed meanwhile: once more on a new one
            try:
                conn = self._conn()
                with conn.transaction():
                    return query(conn)
            except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                self.close()
                if attempt == 2 or not _lost(exc):
                    raise ArchiveUnavailable(f"the archive cannot be read now: {scrub(str(exc).splitlines()[0], self.url)}"
                                             ) from None
            except psycopg.Error as exc:
                raise ArchiveUnavailable(f"the archive refused the query: {scrub(str(exc).splitlines()[0], self.url)}"
                                         ) from None
        raise AssertionError("unreachable")

    def _conn(self) -> Any:
        import psycopg

        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            conn = psycopg.connect(self.url, connect_timeout=max(1, round(self.connect_timeout)),
                                   application_name="tablectl-pit-board",
                                   options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS} "
                                           f"-c default_transaction_read_only=on")
            conn.autocommit = True   # each read is its own transaction (conn.transaction())
            self._local.conn = conn
            with self._lock:
                self._all = [c for c in self._all if not c.closed] + [conn]
        return conn


def _lost(exc: Exception) -> bool:
    """Whether the connection itself went (worth one more try), not a query's failure."""
    return getattr(exc, "sqlstate", None) is None
