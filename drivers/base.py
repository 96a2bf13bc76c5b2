"""The driver protocol every device class meets, whatever its transport (serial, USB, GPIO).

The table starts and stops its drivers, reads ``alive`` for the watchdog
and waits for ``synced`` before it lets the dealer act (a device that has
not said hello to this process may still send a frame meant for a process
that is gone). A driver only ever puts :mod:`drivers.events` objects on the
table's inbox; it never touches game state.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class DeviceDriver(Protocol):
    name: str

    def start(self) -> None: ...
    def stop(self) -> None: ...

    @property
    def alive(self) -> bool:
        """The transport is open and the device was heard within its presence timeout."""
        ...

    @property
    def synced(self) -> bool:
        """The device has answered this process at least once."""
        ...
