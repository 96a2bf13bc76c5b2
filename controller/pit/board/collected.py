"""What each poker-room table collected this shift, for the board (issue 22.6): the house's fees,
the time collections and the jackpot drops, totalled as `tablectl report` totals them.

The rules are the report's, not a second reading of them: which event carries which collection
and when a voided hand's counts (controller.pit.report.query ``collection_of`` and
``add_collection``), and which shift a moment is in, in the site's zone
(controller.pit.report.shifts). The picture hands each ``result`` and ``action_button`` event here
once (replays included); a total is kept per table for the shift its newest collection fell in,
and starts again with the next shift. Cheap: two dict lookups per event, and a clock conversion
for the events that carry a collection.

**What it cannot know** it says: a board started after a shift began has not seen that shift's
earlier hands (they are in the archive: `tablectl report`), so its total is marked partial, from
the first collection it saw. A total that gap-filling replays complete is complete again only in
the report.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from controller.pit.report.query import ShiftBlock, Unreadable, add_collection, collection_of
from controller.pit.report.shifts import DEFAULT_SHIFTS, Shifts, site_zone


@dataclass
class _Running:
    block: ShiftBlock
    start: float
    end: float
    partial_since: float | None


class Collected:
    """Each table's collections of its current shift."""

    def __init__(self, shifts: Shifts | None = None, zone: tzinfo | None = None,
                 started: float | None = None) -> None:
        self.shifts = shifts or Shifts.parse(DEFAULT_SHIFTS)
        self.zone = zone or site_zone(None)[0]
        self.started = time.time() if started is None else started
        """When this board began to hear the tables: a shift begun before it is seen only in part."""
        self.unreadable = 0
        self._tables: dict[str, _Running] = {}

    def take(self, table: str, kind: str, ts: float | None, data: dict[str, Any]) -> bool:
        """One ``result`` or ``action_button`` event; whether the table's total changed."""
        if kind not in ("result", "action_button") or ts is None:
            return False
        try:
            collection = collection_of(data)
        except Unreadable:
            self.unreadable += 1   # money is never guessed: `tablectl report` names the row
            return False
        if collection is None:
            return False
        try:
            local = datetime.fromtimestamp(ts, self.zone)
        except (OverflowError, OSError, ValueError):
            return False
        day, shift = self.shifts.of(local)
        start, end = (b.timestamp() for b in self.shifts.bounds(day, shift, self.zone))
        running = self._tables.get(table)
        if running is None or start > running.start:
            running = self._tables[table] = _Running(ShiftBlock(table, None, day, shift), start, end,
                                                     ts if self.started > start else None)
        elif start < running.start:
            return False   # a replayed hand of a shift gone by: the report has it
        if running.partial_since is not None:
            running.partial_since = min(running.partial_since, ts)
        add_collection(running.block, collection, at_start=kind == "action_button")
        return True

    def of(self, table: str) -> dict[str, Any] | None:
        """The table's shift and its totals in cents, or None for a table that collected nothing."""
        running = self._tables.get(table)
        if running is None:
            return None
        b = running.block
        return {"shift": b.shift.name, "day": b.day.isoformat(), "start": running.start, "end": running.end,
                "fees": b.fees, "time": b.time, "jackpot": b.jackpot, "total": b.total,
                "partial_since": running.partial_since}

    def forget(self, table: str) -> None:
        self._tables.pop(table, None)
