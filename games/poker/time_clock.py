"""The time collection's clock: whose time is due as a hand starts, on a ``"time"`` fee schedule
(games.poker.economics: Stud Hi-Lo's "$6.00 PER 1/2 HOUR PER PERSON"; Draw & Low-Ball's "The fee
of 5.00 is collected every 1/2 hr.").

The sheet posts the rate, not the procedure. What a card room does, and what this keeps:
1. **A new player pays at once** ("A new player having paid his 'time collection' is
   automatically dealt a hand"): a seat dealt in with no paid time pays before the deal.
2. **Then every period**: at the first hand that starts once a player's paid period has run out,
   he pays the next one; the period runs from that payment, so nobody pays twice for one period
   and nobody plays a hand on unpaid time.
3. **Time out of the game is not charged**: a player who sits out keeps what he paid; sitting in
   again before it runs out costs nothing until it does, after it he pays one period, not the
   periods he was away.
4. **Time is kept by seat**: the controller sees seats, not people. A new player who takes a seat
   whose half hour is paid plays the rest of it on the seat's time and pays at the next
   collection; the dealer may collect from him at once ("A new player having paid his 'time
   collection'"), which the prompt cannot know.

The clock is monotonic (a wall clock set by NTP or by hand would charge early or late). What was
paid lives in the controller's memory only: after a restart every player's time is asked for
again (docs/stud.md, "Not done").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from games.poker.pitched import money


class TimeClock:
    """Whose time the house collects as each hand starts."""

    def __init__(self, fee_each: int, period_minutes: int, clock: Callable[[], float] = time.monotonic) -> None:
        if fee_each < 0 or period_minutes < 1:
            raise ValueError(f"a time collection needs a fee of 0 or more and a period of a minute or more, "
                             f"not {fee_each} cents per {period_minutes} minutes")
        self.fee_each = fee_each
        self.period = period_minutes * 60.0
        self.clock = clock
        self._paid_until: dict[int, float] = {}

    def due(self, players: Iterable[int]) -> list[int]:
        """The seats among ``players`` whose time is due now (rules 1 and 2), without collecting."""
        now = self.clock()
        return sorted(s for s in players if self._paid_until.get(s, float("-inf")) <= now)

    def collect(self, players: Iterable[int]) -> dict[str, Any]:
        """Collect from the seats whose time is due as a hand of ``players`` starts: ``{"time_due":
        [seats], "fee": cents in all, "time_left": {seat: whole minutes each player has paid for,
        after this collection}}`` for the hand's published collection."""
        players = sorted(set(players))
        now = self.clock()
        due = [s for s in players if self._paid_until.get(s, float("-inf")) <= now]
        for seat in due:
            self._paid_until[seat] = now + self.period
        # Whole seconds first: ``now + period - now`` is not ``period`` in floating point for every
        # ``now`` (a monotonic clock of some hours' uptime gave 1799.9999 s, "29 minutes left").
        left = {str(s): round(self._paid_until[s] - now) // 60 for s in players}
        return {"time_due": due, "fee": self.fee_each * len(due), "time_left": left}


def collect_phrase(take: dict[str, Any]) -> str:
    """The collect step's words for a hand's time collection (``take``: the hand's published
    collection after :meth:`TimeClock.collect`), the same in every game that collects by time."""
    due = take.get("time_due", [])
    rate = f"{money(take['time_fee_each'])} per person per {take['period_minutes']} minutes"
    if not due:
        return f"no player's time is due this hand ({rate}), nothing from this pot"
    return (f"collect time ({rate}) from seat{'s' if len(due) > 1 else ''} {', '.join(map(str, due))}: "
            f"{money(take['fee'])} in all, nothing from this pot")


__all__ = ["TimeClock", "collect_phrase"]
