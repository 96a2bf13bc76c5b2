"""When the journal received each event, as `tablectl prune` can trust it.

An event's ``ts`` is the wall clock at the moment it was made, and a Pi has no battery
clock: it boots with the time it saved at its last shutdown (fake-hwclock, or
systemd-timesyncd's clock file) and jumps to the real time when NTP answers, minutes or
hours later, or never when the network is down. Events written before that jump carry a
``ts`` from the past (by however long the Pi was off), and a prune that trusted ``ts``
would delete them minutes after they were written. A wall clock can also jump the other
way (a wrong time server, a hand-set clock put right).

So the journal stamps every row with ``received``, by this rule: whatever can be wrong,
``received`` errs towards *later*, never earlier, because an event that looks younger than
it is is only kept longer.

- ``received`` never goes back: it is at least the last one written (a high-water mark),
  so a wall clock that steps back does not make new events look old.
- Within one boot, the wall clock's distance from ``CLOCK_MONOTONIC`` (which every process
  of a boot shares and which no one can set) only changes when the wall clock is stepped.
  When it grows (NTP put a late clock right), every row written since this boot's first is
  moved later by the step, up to the present: those rows were written that much later than
  the late clock said. The boot, the distance and the first seq of the boot are kept in
  the journal's ``meta`` (``clock``), so a controller restarted within the same boot goes on
  from them. A step back only updates the distance (the high-water mark covers it).
- Across a reboot nothing can be measured: a row written before a reboot keeps what it was
  given. A Pi that never reached a time server between boots leaves its rows stamped by
  its saved clock, which is the one case this rule cannot correct.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

STEP = 2.0
"""Seconds the wall clock's distance from the monotonic clock must change by to be a step.
NTP slews small errors (the distance drifts by milliseconds); a step is NTP's first
correction of a late clock, or someone setting the time."""

BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


@dataclass(frozen=True, slots=True)
class ClockReading:
    """The two clocks at one moment, and which boot the monotonic one belongs to."""

    wall: float
    mono: float
    boot: str


@cache
def boot_id() -> str:
    """The kernel's id of this boot, read once (it cannot change while a process runs: the
    journal stamps every commit, and a file read per commit would be on the event path).
    Without one, the monotonic clock is trusted within this process only."""
    try:
        return BOOT_ID.read_text().strip()
    except OSError:
        return f"process-{os.getpid()}-{time.monotonic_ns()}"


def system_clock() -> ClockReading:
    """``time.time()``, ``time.monotonic()`` (CLOCK_MONOTONIC on Linux: one clock for every
    process of a boot) and :func:`boot_id`."""
    return ClockReading(time.time(), time.monotonic(), boot_id())


Clock = Callable[[], ClockReading]


@dataclass(frozen=True, slots=True)
class Segment:
    """The rows written in one boot, from ``first_seq``, and the wall clock's distance from the
    monotonic clock when last seen (``meta.clock``)."""

    boot: str
    offset: float
    first_seq: int

    def to_meta(self) -> dict[str, Any]:
        return {"boot": self.boot, "offset": self.offset, "first_seq": self.first_seq}

    @staticmethod
    def from_meta(value: Any) -> Segment | None:
        """None for a missing or damaged ``meta.clock`` (then the next write starts a segment)."""
        if not isinstance(value, Mapping):
            return None
        boot, offset, first = value.get("boot"), value.get("offset"), value.get("first_seq")
        if not isinstance(boot, str) or not isinstance(offset, (int, float)) or isinstance(offset, bool) \
                or not isinstance(first, int) or isinstance(first, bool):
            return None
        return Segment(boot, float(offset), first)


@dataclass(frozen=True, slots=True)
class Stamp:
    """What one commit writes: ``received`` for its rows; rows from ``shift_from`` on moved
    ``shift`` seconds later (not past ``received``); the segment to keep, when it changed."""

    received: float
    shift: float
    shift_from: int
    segment: Segment
    changed: bool


class ReceiptClock:
    """``received`` for each commit of the journal's events, by the rule above. The journal
    asks for a :class:`Stamp` before a commit and :meth:`commit` s it after, so a rolled-back
    commit changes nothing here."""

    def __init__(self, clock: Clock, high: float | None, segment: Segment | None) -> None:
        self.clock = clock
        self.high = high
        self.segment = segment

    def stamp(self, first_seq: int) -> Stamp:
        now = self.clock()
        offset = now.wall - now.mono
        seg, shift, changed = self.segment, 0.0, False
        if seg is None or seg.boot != now.boot:
            seg, changed = Segment(now.boot, offset, first_seq), True  # a new boot: nothing to compare with
        elif abs(offset - seg.offset) > STEP:
            if offset > seg.offset:
                shift = offset - seg.offset  # the wall clock was late by this much: so were this boot's rows
            seg, changed = Segment(seg.boot, offset, seg.first_seq), True
        received = now.wall if self.high is None else max(now.wall, self.high)
        return Stamp(received, shift, seg.first_seq, seg, changed)

    def commit(self, stamp: Stamp) -> None:
        self.high = stamp.received
        self.segment = stamp.segment
