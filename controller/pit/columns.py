"""Aligned columns for the terminal: `tablectl report`'s sections and `tablectl watch`'s board.

Plain text, so a report reads the same in a terminal, a mail or a file, and no table library is
needed for what is a width and a pad per column.
"""

from __future__ import annotations

from collections.abc import Sequence


def columns(headers: Sequence[str], rows: Sequence[Sequence[object]], numeric: frozenset[str] = frozenset(),
            group: int = 0) -> list[str]:
    """The header (upper case) and the rows, each column as wide as its widest cell, the
    ``numeric`` ones to the right; the first ``group`` cells of a row left blank while they repeat
    the row above, so the eye finds the blocks."""
    cells = [[printable(str(c)) for c in row] for row in rows]
    shown: list[list[str]] = []
    previous: list[str] | None = None
    for row in cells:
        same = previous is not None and row[:group] == previous[:group]
        shown.append([""] * group + row[group:] if group and same else row)
        previous = row
    heads = [h.upper() for h in headers]
    widths = [max([len(h), *(len(r[i]) for r in shown)]) for i, h in enumerate(heads)]
    right = [h in numeric for h in headers]

    def line(row: Sequence[str]) -> str:
        parts = [c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right, strict=True)]
        return "  ".join(parts).rstrip()
    return [line(heads), *(line(r) for r in shown)]


def printable(text: str) -> str:
    """Text from a table fit for a terminal: what a table published can hold any character, and an
    escape sequence in an alarm's message must not move the cursor or clear the screen; a control
    character is shown escaped (``\\x1b``, ``\\n``) instead."""
    return text if text.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
