"""The option checks every poker-room game's ``[game]`` section shares (games/holdem, stud, draw,
mexican_stud, panguingue): the seats in when the table opens, and the house's collection from the
posted schedule or the table's own. Written once, so a bad value reads the same in every game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.options import OptionError
from games.poker.economics import Economics


def check_seats_in(seats_in: Sequence[Any] | None, seats: int) -> None:
    """``seats_in`` (None: every seat) names seats of this table, each once; else OptionError."""
    if seats_in is None:
        return
    bad = [s for s in seats_in if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= seats]
    if bad:
        raise OptionError("seats_in", f"{bad[0]!r} is not a seat of a {seats}-seat table")
    if len(set(seats_in)) != len(seats_in):
        raise OptionError("seats_in", "a seat is listed twice")


def economics_for(game: str, schedule: Any, **more: Any) -> Economics:
    """The game's collection from ``schedule`` (a posted schedule's name or a table's own
    mapping); an error names ``schedule`` (or the key of it that is wrong), not the internals."""
    try:
        return Economics.from_mapping({"game": game, "schedule": schedule, **more})
    except OptionError as exc:
        raise OptionError("schedule" if exc.field in ("economics", "game") else exc.field, exc.why) from None


__all__ = ["check_seats_in", "economics_for"]
