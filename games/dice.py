"""Dice as the rules use them: what a valid reading is, and the seat a dice total reaches.

Pure functions, no I/O: the dice step (games.round.steps.DiceDue) checks every reading the cup
sends with :func:`reading_problem`, and a game that deals from the seat the dice point at
(Pai Gow Tiles, Double-Hand Poker, Hot Action Blackjack) counts with :func:`seat_for_total`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
"""The faces of a die: a reading outside them is a device fault, never a throw."""

Direction = Literal["clockwise", "counterclockwise"]


def reading_problem(values: Sequence[int], count: int, shaken: bool) -> tuple[str, str] | None:
    """Why a reading cannot be the throw a round asked for, as ``(alarm code, message)``, or None.

    Checked in this order, so the alarm names the first thing wrong: no shake since the step
    became due (``dice_before_shake``: the same dice read again are not a new throw), the wrong
    number of dice (``dice_count``), a value that is no face of a die (``dice_value``).
    """
    shown = " ".join(str(v) for v in values) or "no dice"
    if not shaken:
        return "dice_before_shake", f"dice read ({shown}) before the cup was shaken for this throw"
    if len(values) != count:
        return "dice_count", f"{len(values)} dice read ({shown}), but this throw is of {count} dice"
    bad = [(die, v) for die, v in enumerate(values, start=1) if v not in FACES]
    if bad:
        which = ", ".join(f"die {die} showed {v}" for die, v in bad)
        return "dice_value", f"{which}: a die shows 1 to 6 (read {shown})"
    return None


def seat_for_total(total: int, start_seat: int, seats: Sequence[int], direction: Direction) -> int:
    """The seat a dice total reaches, counting ``start_seat`` (the shaker, the banker) as 1.

    ``seats`` are the positions counted, in seat-number order (seats are numbered clockwise:
    docs/internals.md), every position whether or not a player sits there, as the card room
    counts them. Pai Gow Tiles counts counter-clockwise from the banker, so with eight positions
    the banker is 1, 9 and 17 (GAMES.md); a total past the last position goes round again.
    Raises :class:`ValueError` naming what is wrong (a total below 1, a start seat not counted,
    no seats, an unknown direction).
    """
    if direction not in ("clockwise", "counterclockwise"):
        raise ValueError(f"direction must be clockwise or counterclockwise, not {direction!r}")
    order = list(seats)
    if not order:
        raise ValueError("no seats to count")
    if len(set(order)) != len(order) or order != sorted(order):
        raise ValueError(f"seats must be distinct seat numbers in clockwise order, not {order}")
    if start_seat not in order:
        raise ValueError(f"seat {start_seat} is not one of the seats counted ({order})")
    if isinstance(total, bool) or not isinstance(total, int) or total < 1:
        raise ValueError(f"a dice total is a whole number from 1, not {total!r}")
    step = 1 if direction == "clockwise" else -1
    return order[(order.index(start_seat) + step * (total - 1)) % len(order)]
