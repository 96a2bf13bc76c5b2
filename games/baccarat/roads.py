"""The baccarat scoreboard roads, drawn from a shoe's results (pure: no I/O, no clock).

Players at a baccarat table follow the shoe on five "roads", and a pit board that shows a table
without them is not one the floor recognises. They are drawn from the ``result`` events of the
current shoe (every result since the last shuffle), oldest first; nothing but what the table
published (the winner and the two hands' cards) goes in. The rules followed, as the floor's
scoreboards draw them:

**Bead plate.** Every result, ties included, one cell each, filling a 6-row grid column by column
(top to bottom, then the next column to the right). A cell is ``B``, ``P`` or ``T``, with the
pairs marked.

**Big road.** Banker and player wins only. A run of one winner fills a column top to bottom; a
change of winner starts a new column at the top, in the column to the right of where the
previous run *started*. A run that reaches row 6, or meets a cell already taken below it, turns
right and goes on along that row (the "dragon tail"), and stays on that row for the rest of the
run. (Should the top cell of the next column be taken by a tail, the run starts at the first
free top cell further right: rare, but a long shoe of long runs reaches it.) A tie takes no cell:
it is counted on the cell of the win before it. Ties before the first win of the shoe are
counted on the first cell when it comes (:attr:`Grid.pending_ties` holds them until then). A
cell carries the banker and player pairs of its own result (a pair: the hand's first two cards
of one rank).

**Derived roads** (big eye boy, small road, cockroach pig: ``k`` = 1, 2, 3). They read the big
road as its *logical* columns (each run, however its tail bends), one mark per banker or player
win, and ask whether the shoe repeats itself (red) or not (blue):

- the first win of a new column (row 1): red if the two columns before it, the one just left
  and the one ``k`` further left, have the same length; blue if not;
- any later win of a column (row r > 1): look at the column ``k`` to the left: red if it has a
  cell at row r, blue if its last cell is at row r - 1 (the pattern just broke), red if it is
  shorter still (no pattern, and that repeats).

A derived road starts with the first win that has something to compare: at column k+1 row 2, or
else at column k+2 row 1 (1-based: big eye boy at 2/2 or 3/1, small road 3/2 or 4/1, cockroach
pig 4/2 or 5/1). Its marks are placed on a 6-row grid by the big road's own rules (runs of one
colour, dragon tails).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

ROWS = 6
"""Rows of every road's grid, as the floor's scoreboards draw them."""

WINNERS = {"banker": "B", "player": "P", "tie": "T"}

DERIVED: tuple[tuple[str, str, int], ...] = (
    ("big_eye_boy", "Big eye boy", 1),
    ("small_road", "Small road", 2),
    ("cockroach_pig", "Cockroach pig", 3),
)
"""Each derived road: its name, its title and how many columns back it compares."""


@dataclass(frozen=True)
class Outcome:
    """One round, as the roads need it: who won, and whether either hand was dealt a pair."""

    winner: str
    """``B``, ``P`` or ``T``."""
    banker_pair: bool = False
    player_pair: bool = False

    @classmethod
    def from_result(cls, data: Mapping[str, Any]) -> Outcome:
        """From a baccarat ``result`` event's data; ValueError naming what it cannot read."""
        winner = WINNERS.get(data.get("winner")) if isinstance(data, Mapping) else None
        if winner is None:
            raise ValueError("a result's winner must be banker, player or tie")
        return cls(winner, _pair(data.get("banker")), _pair(data.get("player")))

    @classmethod
    def parse(cls, text: str) -> list[Outcome]:
        """``"BBPT"`` -> outcomes without pairs: how the tests and examples write a shoe."""
        return [cls(c) for c in text if not c.isspace()]


def _pair(hand: object) -> bool:
    cards = hand.get("cards") if isinstance(hand, Mapping) else None
    if not isinstance(cards, list) or len(cards) < 2 or not all(isinstance(c, str) and c for c in cards[:2]):
        return False
    return cards[0][:-1] == cards[1][:-1]


@dataclass(frozen=True)
class Cell:
    col: int
    row: int
    mark: str
    """``B``, ``P``, ``T`` (bead plate, big road) or ``red``, ``blue`` (derived roads)."""
    ties: int = 0
    banker_pair: bool = False
    player_pair: bool = False


@dataclass(frozen=True)
class Grid:
    """One road: its cells on a grid of :data:`ROWS` rows, 0-based (col, row)."""

    name: str
    title: str
    cells: tuple[Cell, ...]
    rows: int = ROWS
    pending_ties: int = 0
    """Big road only: ties with no win yet to count them on (a shoe that began with ties)."""
    _at: dict[tuple[int, int], Cell] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._at.update(((c.col, c.row), c) for c in self.cells)

    @property
    def cols(self) -> int:
        return 1 + max((c.col for c in self.cells), default=-1)

    def at(self, col: int, row: int) -> Cell | None:
        return self._at.get((col, row))

    def text(self) -> str:
        """The road as a small picture, one line a row: ``B``/``P``/``T``, ``r``(ed)/``b``(lue),
        ``.`` for an empty cell."""
        def char(cell: Cell | None) -> str:
            if cell is None:
                return "."
            return {"red": "r", "blue": "b"}.get(cell.mark, cell.mark)
        return "\n".join("".join(char(self.at(c, r)) for c in range(self.cols)) for r in range(self.rows))

    def to_json(self) -> dict[str, Any]:
        cells = []
        for c in self.cells:
            cell: dict[str, Any] = {"col": c.col, "row": c.row, "mark": c.mark}
            if c.ties:
                cell["ties"] = c.ties
            if c.banker_pair:
                cell["banker_pair"] = True
            if c.player_pair:
                cell["player_pair"] = True
            cells.append(cell)
        out: dict[str, Any] = {"name": self.name, "title": self.title, "rows": self.rows, "cols": self.cols,
                               "cells": cells}
        if self.pending_ties:
            out["pending_ties"] = self.pending_ties
        return out


def place(marks: Sequence[str], rows: int = ROWS) -> list[tuple[int, int]]:
    """Where each mark of a big road (or a derived road) goes: runs of one mark down a column,
    a new run to the right of where the previous one started, dragon tails to the right."""
    taken: set[tuple[int, int]] = set()
    out: list[tuple[int, int]] = []
    start, col, row, turned, prev = -1, 0, 0, False, None
    for mark in marks:
        if mark != prev:
            start += 1
            while (start, 0) in taken:
                start += 1
            col, row, turned = start, 0, False
        elif not turned and row + 1 < rows and (col, row + 1) not in taken:
            row += 1
        else:
            turned = True
            col += 1
            while (col, row) in taken:
                col += 1
        taken.add((col, row))
        out.append((col, row))
        prev = mark
    return out


def bead_plate(outcomes: Sequence[Outcome], rows: int = ROWS) -> Grid:
    return Grid("bead_plate", "Bead plate", tuple(
        Cell(i // rows, i % rows, o.winner, 0, o.banker_pair, o.player_pair) for i, o in enumerate(outcomes)),
        rows)


def big_road(outcomes: Sequence[Outcome], rows: int = ROWS) -> Grid:
    wins = [o for o in outcomes if o.winner != "T"]
    ties = [0] * len(wins)
    leading = 0
    seen = -1
    for o in outcomes:
        if o.winner != "T":
            seen += 1
        elif seen < 0:
            leading += 1
        else:
            ties[seen] += 1
    if wins:
        ties[0] += leading
    where = place([o.winner for o in wins], rows)
    cells = tuple(Cell(c, r, o.winner, t, o.banker_pair, o.player_pair)
                  for (c, r), o, t in zip(where, wins, ties, strict=True))
    return Grid("big_road", "Big road", cells, rows, pending_ties=0 if wins else leading)


def derived_marks(outcomes: Iterable[Outcome], k: int) -> list[str]:
    """The red and blue marks of the derived road that looks ``k`` columns back, in order."""
    runs: list[int] = []
    prev = None
    marks: list[str] = []
    for o in outcomes:
        if o.winner == "T":
            continue
        if o.winner != prev:
            runs.append(1)
        else:
            runs[-1] += 1
        prev = o.winner
        c, r = len(runs) - 1, runs[-1] - 1
        if c < k or (c == k and r == 0):
            continue  # nothing to compare yet
        if r == 0:
            marks.append("red" if runs[c - 1] == runs[c - 1 - k] else "blue")
        else:
            before = runs[c - k]
            marks.append("blue" if before == r else "red")
    return marks


def derived_road(outcomes: Sequence[Outcome], name: str, title: str, k: int, rows: int = ROWS) -> Grid:
    marks = derived_marks(outcomes, k)
    return Grid(name, title, tuple(Cell(c, r, m) for (c, r), m in zip(place(marks, rows), marks, strict=True)),
                rows)


def roads(outcomes: Sequence[Outcome], rows: int = ROWS) -> list[Grid]:
    """All five, in the order a scoreboard shows them."""
    return [bead_plate(outcomes, rows), big_road(outcomes, rows),
            *(derived_road(outcomes, name, title, k, rows) for name, title, k in DERIVED)]


def scoreboard(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The roads of a shoe from its ``result`` events' data, oldest first, as JSON for the pit
    (the registry's ``scoreboard``). A result it cannot read is left out and counted, so one
    bad event does not take the board down."""
    outcomes: list[Outcome] = []
    unreadable = 0
    for data in results:
        try:
            outcomes.append(Outcome.from_result(data))
        except ValueError:
            unreadable += 1
    counts = {name: sum(1 for o in outcomes if o.winner == mark) for name, mark in WINNERS.items()}
    out: dict[str, Any] = {"grids": [g.to_json() for g in roads(outcomes)], "counts": counts}
    if unreadable:
        out["unreadable"] = unreadable
    return out
