"""Every table at a glance: what `tablectl watch` shows for a whole prefix, one line a table.

A floor supervisor watching a dozen tables wants, for each, the few things that say whether it
needs them: is it up, what is it doing, how did the last round go, how fast is it dealing, and
is anything asking for them. :class:`Glance` keeps that, fed one accepted message at a time by
:meth:`Glance.observe` -- the pit service's observer signature, ``(table, kind, body)`` with
``kind`` ``status``, ``state`` or ``event`` -- so it can hang on `tablectl watch` (which checks
every message first) or on the pit service alike.

- **Hands per hour**: the table's ``result`` events whose time (the table's clock) is within
  the last hour. It counts from when this view started (or from ``--since`` with ``--replay``).
- **Open alarms**: a table's alarms since it last started a round (``round_start``) or resumed
  one (``resume``): a table dealing again has been seen to. By seq, so a replayed alarm from
  before the table went on is not taken for a new one; a void alone does not close an alarm
  (a game broken by its player-dealer rotation voids the round *and* stays closed).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from controller.pitview import result_summary

HOUR = 3600.0

NOTICES = 8
"""Lines kept under the board: the latest alarms, gaps and refused messages."""


@dataclass
class TableGlance:
    table: str
    game: str | None = None
    online: bool | None = None
    """None until the table's status has been seen."""
    state: str | None = None
    round: int | None = None
    last_result: str = ""
    result_seq: int = 0
    results: deque[float] = field(default_factory=deque)
    """The times of the results of the last hour (and older ones until pruned)."""
    alarms: dict[int, dict] = field(default_factory=dict)
    """Open alarms by seq: their data."""
    cleared: int = 0
    """The seq of the last round_start or resume: alarms before it are closed."""
    devices: dict[str, str] = field(default_factory=dict)

    def hands_per_hour(self, now: float) -> int:
        return sum(1 for ts in self.results if now - HOUR < ts <= now + 60)  # a clock a minute fast still counts

    def devices_down(self) -> str:
        """The devices that are not online, or ``ok``; empty before the table has said."""
        down = [f"{name} {status}" for name, status in sorted(self.devices.items()) if status != "online"]
        return ", ".join(down) if down else "ok" if self.devices else ""


class Glance:
    """Thread-safe: the watch's network thread observes, the screen's thread reads."""

    def __init__(self, on_change: Callable[[], None] = lambda: None, clock: Callable[[], float] = time.time,
                 notices: int = NOTICES) -> None:
        self.on_change = on_change
        self.clock = clock
        self._tables: dict[str, TableGlance] = {}
        self._notices: deque[str] = deque(maxlen=notices)
        self._lock = threading.Lock()

    def observe(self, table: str, kind: str, body: dict) -> None:
        with self._lock:
            if kind == "status" and not body:
                self._tables.pop(table, None)  # the retained status cleared: the table is gone
            else:
                t = self._tables.get(table)
                if t is None:
                    t = self._tables[table] = TableGlance(table)
                {"status": self._status, "state": self._state, "event": self._event}[kind](t, body)
        self.on_change()

    def note(self, line: str) -> None:
        """A line for under the board (what `tablectl watch` prints besides events: gaps, refusals)."""
        with self._lock:
            self._notices.append(line)
        self.on_change()

    def tables(self) -> list[TableGlance]:
        """Each table as it is now, by table id (copies: the caller may read them at leisure)."""
        cutoff = self.clock() - HOUR
        with self._lock:
            out = []
            for name in sorted(self._tables):
                t = self._tables[name]
                while t.results and t.results[0] <= cutoff:
                    t.results.popleft()
                out.append(replace(t, results=deque(t.results), alarms=dict(t.alarms), devices=dict(t.devices)))
            return out

    def notices(self) -> list[str]:
        with self._lock:
            return list(self._notices)

    # -- under the lock ---------------------------------------------------------------------

    def _status(self, t: TableGlance, status: dict) -> None:
        t.online = bool(status.get("online"))
        if isinstance(status.get("game"), str):
            t.game = status["game"]
        if isinstance(status.get("devices"), dict):
            t.devices = {str(k): str(v) for k, v in status["devices"].items()}

    def _state(self, t: TableGlance, state: dict) -> None:
        t.state = state.get("state")
        t.round = state.get("round")

    def _event(self, t: TableGlance, env: dict) -> None:
        kind, data, seq = env.get("kind"), env.get("data") or {}, env.get("seq", 0)
        if kind == "result":
            t.results.append(float(env.get("ts", 0)))
            if seq > t.result_seq:
                t.last_result, t.result_seq = result_summary(t.game, data), seq
        elif kind == "alarm":
            if seq > t.cleared:
                t.alarms[seq] = data
            # What to do comes before why: a line cut to the terminal's width keeps the action.
            action = f" | do: {data['action']}" if data.get("action") else ""
            when = time.strftime("%H:%M:%S", time.localtime(float(env.get("ts", 0))))
            self._notices.append(f"{when} {t.table} ALARM {data.get('severity')} {data.get('code')}{action} | "
                                 f"{data.get('message')}")
        elif kind in ("round_start", "resume") and seq > t.cleared:
            t.cleared = seq
            t.alarms = {s: a for s, a in t.alarms.items() if s > seq}
        elif kind == "device" and isinstance(data.get("device"), str):
            t.devices[data["device"]] = str(data.get("status"))
