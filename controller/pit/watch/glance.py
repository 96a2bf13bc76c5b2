"""Every table at a glance, as `tablectl watch` shows it: the pit board's picture, plus the terminal's
running notes.

What a table's line says -- its game, whether it is online, its state and round, its hands per
hour, its open alarms, its devices, its last result -- is the pit board's tile
(:class:`controller.pit.board.picture.Picture`), not a second reading of the same messages: a floor
supervisor with the browser on one screen and a terminal on another must see the same open alarms
and the same pace for a table (docs/pit-board.md says when an alarm stops being open and how the
pace is taken). :class:`Glance` adds only what the terminal has and the board does not: the lines
under the board (each alarm as it comes, with the action it asks for; watch's gaps, replays and
refusals) and a wake-up for the screen's thread when anything changed.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from controller.pit.board.picture import Picture

NOTICES = 8
"""Lines kept under the board: the latest alarms, gaps and refused messages."""


class Glance:
    """The watch's observer: each message goes to the picture, each alarm also to the notes.

    Thread-safe: the watch's network thread observes, the screen's thread reads (the picture
    has its own lock; the notes have theirs)."""

    def __init__(self, on_change: Callable[[], None] = lambda: None, notices: int = NOTICES,
                 picture: Picture | None = None) -> None:
        self.on_change = on_change
        self.picture = picture or Picture()
        self._notices: deque[str] = deque(maxlen=notices)
        self._lock = threading.Lock()

    def observe(self, table: str, kind: str, body: dict) -> None:
        """One message that passed watch's checks (the pit service's observer signature)."""
        self.picture(table, kind, body)
        if kind == "event" and body.get("kind") == "alarm" and isinstance(body.get("data"), dict):
            self._alarm(table, body)
        self.on_change()

    def note(self, line: str) -> None:
        """A line for under the board (what `tablectl watch` prints besides events: gaps, refusals)."""
        with self._lock:
            self._notices.append(line)
        self.on_change()

    def tables(self) -> list[dict[str, Any]]:
        """Every table's tile as the board has it now, by table id (fresh copies: read at leisure)."""
        return self.picture.tiles()["tables"]

    def notices(self) -> list[str]:
        with self._lock:
            return list(self._notices)

    def _alarm(self, table: str, env: dict) -> None:
        """An alarm as it came, open or not by now: the board's open alarms are the tile's, but a
        supervisor glancing away for a minute still sees one that a dealer cleared at once."""
        data = env["data"]
        ts = env.get("ts")
        when = time.strftime("%H:%M:%S", time.localtime(ts)) if isinstance(ts, int | float) else "--:--:--"
        # What to do comes before why: a line cut to the terminal's width keeps the action.
        action = f" | do: {data['action']}" if data.get("action") else ""
        with self._lock:
            self._notices.append(f"{when} {table} ALARM {data.get('severity')} {data.get('code')}{action} | "
                                 f"{data.get('message')}")
