"""The system's clocks as a test sets them, for the journal's ``received`` stamps
(controller/table/journal_clock.py): a wall clock that can be stepped, a monotonic clock
that only runs, and a boot id that changes when the machine reboots."""

from __future__ import annotations

from controller.table.journal_clock import ClockReading


class ScriptedClock:
    def __init__(self, wall: float, boot: str = "boot-1") -> None:
        self.wall = wall
        self.mono = 1000.0
        self.boot = boot

    def __call__(self) -> ClockReading:
        return ClockReading(self.wall, self.mono, self.boot)

    def run(self, seconds: float) -> None:
        """Time passes: both clocks move together."""
        self.wall += seconds
        self.mono += seconds

    def step(self, wall: float) -> None:
        """The wall clock is set (NTP's first correction, or a hand): the monotonic one is not."""
        self.wall = wall

    def reboot(self, wall: float, boot: str) -> None:
        """A new boot: its monotonic clock starts again, its wall clock is whatever was saved."""
        self.wall, self.mono, self.boot = wall, 5.0, boot
