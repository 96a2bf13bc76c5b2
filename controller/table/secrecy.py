"""No published figure depends on a face-down card: line-error counts wait for the reveal.

DESIGN.md, "What must never leave the controller": a card dealt face down is announced as "a
face-down card went to hand X"; its identity goes out with the event that turns it face up.
A figure computed from the card's bytes leaks part of it just as surely as its code would: when
the frame that carries a face-down card is damaged, how many bytes a codec drops, and for which
reasons, can depend on the length of the card's code (a ten is three characters, every other
rank two). Issue 13 found the pit could tell a ten from the ``line_errors`` counts.

So, while a face-down card is due (a prompt asks for one, or for a hand, which is dealt face
down) or lies unrevealed on the layout, the table holds every device's line-error counts back.
When the last face-down card is revealed they go out as they were counted: the card is public
then. When the round ends with a card that is never revealed (a folded hand, a voided round),
each device that dropped bytes meanwhile gets one ``line_errors`` event saying only that counts
were withheld (``{"withheld": 1}``), the same whatever was dropped.

The gate reads only the events the machine emits (``prompt``, ``card``, ``reveal``, ``result``,
``void``, ``round_start``) and the drivers' counts: no game's rules, and nothing of it reaches
the journal but the ``line_errors`` it releases.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

WITHHELD = {"withheld": 1}
"""The counts of a round whose face-down cards were not all revealed: one fixed figure."""

ROUND_OVER = frozenset({"result", "void", "round_start"})


class LineErrorGate:
    """Fed every table event (:meth:`observe`) and every device's drop counts (:meth:`dropped`);
    each returns the ``line_errors`` data the table may publish now."""

    def __init__(self) -> None:
        self._due = False                               # a prompt asks for a face-down card or a hand
        self._down: set[tuple[Any, Any, Any]] = set()   # (hand, seat, position) dealt face down, unrevealed
        self._held: dict[str, Counter[str]] = {}

    @property
    def holding(self) -> bool:
        """A face-down card is due or unrevealed: counts now could describe it."""
        return self._due or bool(self._down)

    def dropped(self, device: str, counts: Mapping[str, int]) -> list[dict[str, Any]]:
        if not self.holding:
            return [{"device": device, "dropped": dict(counts)}]
        self._held.setdefault(device, Counter()).update(counts)
        return []

    def observe(self, kind: str, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        if kind == "prompt":
            expect = data.get("expect")
            self._due = (expect == "card" and data.get("face") == "down") or \
                (expect == "hand" and data.get("face") != "up")
        elif kind == "card" and data.get("face") == "down":
            self._down.add((data.get("hand"), data.get("seat"), data.get("position")))
        elif kind == "reveal":
            hand, seat = data.get("hand"), data.get("seat")
            if "cards" in data:   # a whole hand turned over
                self._down = {d for d in self._down if d[:2] != (hand, seat)}
            else:
                self._down.discard((hand, seat, data.get("position")))
        elif kind in ROUND_OVER:
            secret_left = self.holding
            self._due, self._down = False, set()
            return self._release(withheld=secret_left)
        else:
            return []
        return [] if self.holding else self._release(withheld=False)

    def _release(self, *, withheld: bool) -> list[dict[str, Any]]:
        held, self._held = self._held, {}
        return [{"device": device, "dropped": dict(WITHHELD) if withheld else dict(counts)}
                for device, counts in sorted(held.items()) if counts]
