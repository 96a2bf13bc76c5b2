"""Messages as the pit service hands them to its observers, for the board's tests.

:class:`Table` makes one table's status, state and event envelopes with contiguous seqs and a
clock the test sets; :func:`bac_result` a baccarat result's data. :class:`PitFeed` feeds an
observer from a real broker the way the service will (topic -> table and kind, each (table, seq)
once), until the board is wired to controller.pit.service.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.pit_client import PitClient
from controller.pitview import SeqTracker
from controller.schemas import SchemaError, validate_event

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
    """A broker subscriber that calls ``observer(table, kind, body)`` as the pit service does: the
    table and kind from the topic, events checked against their game's schemas and each (table, seq)
    at most once. (The service's own checks are its tests'; this is the board's stand-in.)"""

    def __init__(self, host: str, port: int, prefix: str, observer: Observer) -> None:
        self.prefix = prefix
        self.observer = observer
        self.seqs = SeqTracker()
        self.games: dict[str, str] = {}
        self.bad: list[str] = []
        self.events: list[tuple[str, dict]] = []
        """(table, envelope) of every event handed on, in order."""
        self._lock = threading.Condition()
        self.client = PitClient(host, port, [f"{prefix}/+/status", f"{prefix}/+/state", f"{prefix}/+/event/+"],
                                self._on_message, client_id=f"board-feed-{id(self)}")

    def start(self) -> PitFeed:
        self.client.start()
        return self

    def stop(self) -> None:
        self.client.stop()

    def _on_message(self, topic: str, body: dict) -> None:
        parts = topic[len(self.prefix) + 1:].split("/")
        table, kind = parts[0], parts[1]
        with self._lock:
            if kind == "status" and isinstance(body.get("game"), str):
                self.games[table] = body["game"]
            if kind == "event":
                try:
                    validate_event(body, game=self.games.get(table))
                except SchemaError as exc:
                    self.bad.append(f"{topic}: {exc}")
                    return
                if body["table"] != table or not self.seqs.accept(table, body["seq"]):
                    return
            self.observer(table, kind, body)
            if kind == "event":
                self.events.append((table, body))
                self._lock.notify_all()

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
