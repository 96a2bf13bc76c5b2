"""When a demo is over: after its rounds, or at once when its table cannot go on.

A newcomer's first command must end by itself with a clear message (README). A demo whose table
breaks the game, closes, faults in a way only the pit can settle, or whose controller stops,
cannot deal its rounds: it says what happened and exits non-zero at once instead of waiting for
a timeout. What it knows is what a pit subscriber knows: the published events.
"""

from __future__ import annotations

from typing import Any


class DemoEnd:
    """Fed every event a pit subscriber receives; :attr:`why` says why the table cannot go on
    (None while it can). ``resolves`` are the buttons the simulated dealer presses on a fault."""

    def __init__(self, resolves: tuple[str, ...] = ("void",)) -> None:
        self.resolves = resolves
        self.why: str | None = None
        self._opened = False
        self._alarm: dict[str, Any] | None = None  # the last critical alarm, or the last alarm

    def feed(self, envelope: dict[str, Any]) -> str | None:
        """Take one event; return why the table cannot go on, once it cannot."""
        if self.why is not None:
            return self.why
        kind, data = envelope.get("kind"), envelope.get("data") or {}
        if kind == "round_start":
            self._alarm = None  # what went wrong before this round is not why it stops
        elif kind == "alarm":
            if self._alarm is None or data.get("severity") == "critical" or self._alarm.get("severity") != "critical":
                self._alarm = data
        elif kind == "transition":
            if data.get("to") == "closed" and self._opened:
                self.why = f"the table closed itself in round {envelope.get('round')}{self._because()}"
            elif data.get("to") != "closed":
                self._opened = True
        elif kind == "prompt" and data.get("expect") == "fault" \
                and not set(self.resolves) & set(data.get("buttons") or []):
            self.why = f"round {envelope.get('round')} is in fault and waits for the pit (void or resume){self._because()}"
        return self.why

    def stopped(self, error: BaseException | None) -> str:
        """The controller's table loop ended by itself."""
        self.why = self.why or f"the controller stopped: {error if error is not None else 'no reason given'}"
        return self.why

    def _because(self) -> str:
        alarm = self._alarm
        if alarm is None:
            return ""
        action = f" ({alarm['action']})" if alarm.get("action") else ""
        return f": {alarm.get('code')}: {alarm.get('message')}{action}"
