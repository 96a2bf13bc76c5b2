"""Messages as the pit service hands them to its observers, for the board's tests.

:class:`Table` makes one table's status, state and event envelopes with contiguous seqs and a
clock the test sets; :func:`bac_result` a baccarat result's data. :class:`PitFeed` is the real
pit service (no archive) feeding an observer, as `tablectl pit --http` feeds the board.
:class:`Stream` reads the board's server-sent events as a browser does.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Observer = Callable[[str, str, dict], None]


@dataclass
class Table:
    """One table's messages: ``status()``, ``state()``, ``event(kind, data)``."""

    id: str = "bac-01"
    game: str = "baccarat"
    seq: int = 0
    ts: float = 1_700_000_000.0
    round: int | None = None
    birth: int = 1
    devices: dict[str, str] = field(default_factory=lambda: {"shoe": "online", "shuffler": "online"})

    def status(self, online: bool = True, **extra: Any) -> dict:
        if not online:
            return {"online": False, "table": self.id, "birth": self.birth, **extra}
        return {"online": True, "table": self.id, "birth": self.birth, "game": self.game, "version": "0.1.0",
                "devices": dict(self.devices), "next_seq": self.seq + 1, "ts": self.ts, **extra}

    def state(self, state: str, prompt: str = "", **extra: Any) -> dict:
        return {"table": self.id, "seq": self.seq, "ts": self.ts, "state": state, "round": self.round,
                "game": self.game, "prompt": {"expect": "none", "hand": None, "buttons": [], "text": prompt},
                **extra}

    def event(self, kind: str, data: dict, *, seq: int | None = None, dt: float = 1.0) -> dict:
        if seq is None:
            self.seq += 1
            seq = self.seq
        self.ts += dt
        return {"seq": seq, "ts": self.ts, "table": self.id, "round": self.round, "kind": kind, "data": data}

    def alarm(self, code: str, severity: str = "fault", message: str = "", action: str = "") -> dict:
        return self.event("alarm", {"code": code, "severity": severity, "message": message or f"{code} happened",
                                    "card": None, "expected": None, "missing": [], "extra": [],
                                    "action": action or f"fix {code}"})


def hand(*cards: str, total: int = 0) -> dict:
    return {"cards": list(cards), "total": total, "natural": False}


def bac_result(winner: str, player: tuple[str, ...] = ("2H", "5C"), banker: tuple[str, ...] = ("KD", "6S"),
               ptotal: int = 7, btotal: int = 6) -> dict:
    outcome = {"player": "win" if winner == "player" else ("push" if winner == "tie" else "lose"),
               "banker": "win" if winner == "banker" else ("push" if winner == "tie" else "lose"),
               "tie": "win" if winner == "tie" else "lose"}
    return {"player": hand(*player, total=ptotal), "banker": hand(*banker, total=btotal), "winner": winner,
            "banker_six": False, "payouts": {k: {"outcome": v, "odds": [1, 1] if v == "win" else None}
                                             for k, v in outcome.items()},
            "player_dealer": None}


class PitFeed:
    """The real pit service (controller.pit.service, without an archive) feeding ``observer``, as
    `tablectl pit --http` does, and keeping every event it handed on, in order, for the tests to
    wait for."""

    def __init__(self, host: str, port: int, prefix: str, observer: Observer) -> None:
        from controller.pit.service import PitService

        self.observer = observer
        self.events: list[tuple[str, dict]] = []
        """(table, envelope) of every event handed on, in order."""
        self.handed: dict[tuple[str, int], float] = {}
        """(table, seq) -> wall clock (``time.time()``) when the service handed that event on: where
        a browser's lag is measured from, not the event's ``ts`` (the table's clock when it made the
        event, before its own journal and publish, which a loaded machine can delay)."""
        self._lock = threading.Condition()
        self.service = PitService(host, port, prefix, None, None, f"board-feed-{id(self)}")
        self.service.add_observer(self._seen)

    def start(self) -> PitFeed:
        self.service.start()
        return self

    def stop(self) -> None:
        self.service.stop()

    def rejected(self) -> int:
        """Messages the service refused (its checks: JSON, schema, seq)."""
        return self.service.counters()["rejected"]

    def _seen(self, table: str, kind: str, body: dict) -> None:
        handed = time.time()
        self.observer(table, kind, body)
        if kind == "event":
            with self._lock:
                if isinstance(body.get("seq"), int):
                    self.handed.setdefault((table, body["seq"]), handed)
                self.events.append((table, body))
                self._lock.notify_all()

    def handed_at(self, table: str, seq: int) -> float:
        """When the service handed ``table``'s event ``seq`` on (wall clock); it must have been."""
        with self._lock:
            return self.handed[(table, seq)]

    def wait_event(self, table: str, kind: str, timeout: float = 30.0) -> dict:
        """The first event of ``kind`` of ``table`` handed on, waiting up to ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                found = next((e for t, e in self.events if t == table and e["kind"] == kind), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {kind} event of {table} within {timeout} s")
                self._lock.wait(left)


class Stream:
    """A server-sent event stream read line by line; each :meth:`next` is one event or comment.
    The socket's timeout is the deadline: a stream that says nothing fails the test."""

    def __init__(self, url: str, cookie: str | None = None, timeout: float = 10.0, last_id: str | None = None) -> None:
        req = urllib.request.Request(url, headers={"Accept": "text/event-stream"})
        if cookie:
            req.add_header("Cookie", f"pitboard={cookie}")
        if last_id is not None:   # as a browser's EventSource reconnecting
            req.add_header("Last-Event-ID", last_id)
        self.resp = urllib.request.urlopen(req, timeout=timeout)
        self.headers = self.resp.headers
        self.last_id: str | None = None
        """The id of the last event read (what a browser would send back on reconnecting)."""

    def next(self) -> tuple[str, str]:
        event, data = "message", []
        while True:
            line = self.resp.readline()
            if not line:
                raise EOFError("the stream ended")
            text = line.decode("utf-8").rstrip("\n")
            if not text:
                if data:
                    return event, "\n".join(data)
                continue
            if text.startswith(":"):
                return "comment", text[1:].strip()
            name, _, value = text.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "event":
                event = value
            elif name == "data":
                data.append(value)
            elif name == "id":
                self.last_id = value

    def json(self, kind: str) -> dict:
        """The next event's data, which must be a ``kind``. Keep-alive comments before it are
        skipped: with the tests' 0.3 s keep-alive, a test thread stalled that long between its
        snapshot and its publish (a loaded machine) sees one first, and that is no failure. The
        keep-alive test itself reads them strictly with :meth:`next`."""
        event, data = self.next()
        while event == "comment" and data == "keep-alive":
            event, data = self.next()
        assert event == kind, (event, data)
        return json.loads(data)

    def close(self) -> None:
        self.resp.close()
