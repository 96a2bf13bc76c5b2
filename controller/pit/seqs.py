"""Sets of one table's seqs kept as runs, for the pit service.

A table's seqs arrive nearly in order, so a few runs hold them; but a pit service that shares
a site's events with another sees every other seq or so, and its runs multiply. So the set is
bounded: :meth:`SeqRuns.trim` drops the oldest runs, and the caller decides what the dropped
seqs mean (handed to the observers already, or to be looked up in the archive).
"""

from __future__ import annotations

from bisect import bisect_right

MOST_RUNS = 4096
"""Runs kept per table: some 8,000 seqs of a shared subscription, far more of a single one."""


class SeqRuns:
    """Seqs as sorted, disjoint, non-adjacent runs ``[start, end]``; everything at or below
    ``floor`` counts as in the set."""

    def __init__(self, floor: int = 0) -> None:
        self.floor = floor
        self._starts: list[int] = []
        self._ends: list[int] = []

    def __len__(self) -> int:
        return len(self._starts)

    def __contains__(self, seq: int) -> bool:
        if seq <= self.floor:
            return True
        i = bisect_right(self._starts, seq) - 1
        return i >= 0 and seq <= self._ends[i]

    def add(self, seq: int) -> bool:
        """True if ``seq`` was not in the set."""
        if seq in self:
            return False
        i = bisect_right(self._starts, seq)  # the run before is runs[i-1], the one after runs[i]
        joins_before = i > 0 and self._ends[i - 1] == seq - 1
        joins_after = i < len(self._starts) and self._starts[i] == seq + 1
        if joins_before and joins_after:
            self._ends[i - 1] = self._ends[i]
            del self._starts[i], self._ends[i]
        elif joins_before:
            self._ends[i - 1] = seq
        elif joins_after:
            self._starts[i] = seq
        else:
            self._starts.insert(i, seq)
            self._ends.insert(i, seq)
        self._merge_floor()
        return True

    def raise_floor(self, seq: int) -> None:
        """Everything up to ``seq`` counts as in the set from now on."""
        if seq > self.floor:
            self.floor = seq
            while self._starts and self._ends[0] <= seq:
                del self._starts[0], self._ends[0]
            if self._starts and self._starts[0] <= seq:
                self._starts[0] = seq + 1
            self._merge_floor()

    def trim(self, most: int = MOST_RUNS) -> list[tuple[int, int]]:
        """Drop the oldest runs past ``most``; the runs dropped."""
        cut = len(self._starts) - most
        if cut <= 0:
            return []
        dropped = list(zip(self._starts[:cut], self._ends[:cut], strict=True))
        del self._starts[:cut], self._ends[:cut]
        return dropped

    def forget(self, floor: int = 0) -> None:
        """Empty, with a new floor."""
        self.floor = floor
        self._starts.clear()
        self._ends.clear()

    def _merge_floor(self) -> None:
        if self._starts and self._starts[0] <= self.floor + 1:
            self.floor = max(self.floor, self._ends[0])
            del self._starts[0], self._ends[0]
