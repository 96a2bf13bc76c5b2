"""One controller per journal: an exclusive lock held for the life of the process.

A second `tablectl run` with the same config used to void the live round and die on
``UNIQUE constraint failed: events.seq``, both processes numbering events from the same
journal. The lock (``flock`` on ``<journal>.lock``, released by the kernel when the process
ends, however it ends) makes the second one stop before it touches anything, saying which
process holds the table. `tablectl prune` does not take it: it is safe beside a running table.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class TableLocked(RuntimeError):
    """Another process holds this table's journal."""


class AnotherController(RuntimeError):
    """Another controller, with another journal, publishes as this table on the broker: seqs
    would go out twice with different payloads. The younger of the two stops with this."""


class InstanceLock:
    def __init__(self, journal: Path, table: str) -> None:
        self.path = Path(f"{journal}.lock")
        self.table = table
        self._fd: int | None = None

    def acquire(self) -> InstanceLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o640)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise TableLocked(f"another tablectl (pid {holder}) is running table {self.table}: it holds "
                              f"{self.path}; stop it first, or give this one its own table id and journal") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None
