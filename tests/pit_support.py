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


FLOOR_GAMES = {"baccarat": "bac", "three_card_poker": "tcp", "holdem": "hol", "joker_seven": "jok", "no_bust": "nob",
               "pai_gow_tiles": "pgt", "stud": "stu", "betwin": "bet"}
"""The floor's games, and the start of their tables' ids."""
FLOOR_AREAS = '''[areas]
"bac-*" = "Pit 1"
"tcp-*" = "Pit 1"
"jok-*" = "Pit 2"
"nob-*" = "Pit 2"
"pgt-*" = "Pit 3"
"bet-*" = "Pit 3"
"hol-*" = "Poker room"
"stu-*" = "Poker room"
'''
"""The floor's areas (controller.pit.board.areas), by the table ids :func:`floor` gives."""


def floor(count: int = 48, now: float | None = None) -> list[tuple[str, str, dict]]:
    """A floor of ``count`` tables of eight games as the pit service hands its messages over: most
    dealing at a human pace, and the trouble a floor has -- a critical alarm, tables in fault, a
    warning, a shoe offline, a table offline -- each begun at its own time, so the floor's order is
    worked out from when. Returns the (table, kind, body) messages, in order."""
    now = time.time() if now is None else now
    out: list[tuple[str, str, dict]] = []
    for i in range(count):
        game = list(FLOOR_GAMES)[i % len(FLOOR_GAMES)]
        t = Table(id=f"{FLOOR_GAMES[game]}-{i // len(FLOOR_GAMES) + 1:02d}", game=game,
                  ts=now - 600 + i, devices={"shoe": "online", "shuffler": "online"})
        out.append((t.id, "status", t.status()))
        t.round = 100 + 7 * i
        for _ in range(3):   # a hand a minute: 60 hands an hour; the poker room's collect a fee and a drop
            data = bac_result("banker") if game == "baccarat" else {"winner": "banker"}
            if game in ("holdem", "stud"):
                data["collection"] = {"basis": "pot", "fee": 300, "jackpot": 100}
            out.append((t.id, "event", t.event("result", data, dt=60.0)))
        t.round += 1
        out.append((t.id, "event", t.event("round_start", {"round": t.round, "player_dealer": None,
                                                          "last_of_shoe": False}, dt=5.0)))
        trouble = i % 12
        state, prompt, expect = (("dealing", "Card \u2192 player", "card") if i % 3 else
                                 ("betting", "Place bets, then press deal", "bets"))
        if trouble == 3:
            state, prompt, expect = "fault", "Fault: 9H drawn, but no card is due. To go on, the pit voids or resumes.", "fault"
            out.append((t.id, "event", t.alarm("unexpected_card", "fault", "9H drawn, but no card is due",
                                             "void the round or resume")))
        out.append((t.id, "event", t.event("transition", {"from": "ready", "to": state, "trigger": "t"})))
        out.append((t.id, "event", t.event("prompt", {"expect": expect, "hand": None, "buttons": [], "text": prompt})))
        if trouble == 7 and i < 12:
            out.append((t.id, "event", t.alarm("outbox_full", "critical", "the backlog reached journal.max_undelivered",
                                             "finish the round; dealing resumes when the backlog is down")))
        elif trouble == 5:
            out.append((t.id, "event", t.alarm("shuffler_count_slow", "warning", "the shuffler's count took 40 s",
                                             "watch the shuffler")))
        elif trouble == 9:
            out.append((t.id, "event", t.event("device", {"device": "shoe", "status": "offline", "code": None,
                                                        "detail": "port closed"})))
        elif trouble == 11 and i > 12:
            out.append((t.id, "status", t.status(online=False, reason="controller stopped (SIGTERM)")))
    return out


def wait_picture(picture: Any, predicate: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    """Until ``predicate()`` (read from ``picture``) holds: woken by each change of the picture (a
    reader of its board feed, as a browser is), never a poll."""
    client = picture.feed.subscribe(None)
    try:
        deadline = time.monotonic() + timeout
        while True:
            found = predicate()
            if found:
                return found
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"never: {what}")
            client.take(left)
    finally:
        picture.unsubscribe(client)


USERS = {"ann": ("supervisor", "ann's Corr3ct horse"), "vic": ("viewer", "vic's battery st4ple"),
         "ada": ("admin", "ada's admin pa55")}
"""The board's users in the tests: name -> (role, password)."""


def users_file(folder: Any) -> Any:
    """A users file (controller.pit.board.users) with :data:`USERS`, in ``folder``."""
    from pathlib import Path

    from controller.pit.board.users import Users

    users = Users(Path(folder) / "board-users")
    for name, (role, password) in USERS.items():
        users.add(name, role, password)
    users.save()
    return users.path


class _Keep(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kw: Any) -> None:
        return None   # a 303 is the answer a test looks at, not a page to follow


class BoardClient:
    """One browser's worth of the board over HTTP, as a test drives it: its cookies (the session and
    the device cookies a login gives), its CSRF token (from /api/me), its own address as a trusted
    proxy would forward it (``forwarded_for``)."""

    def __init__(self, url: str, forwarded_for: str | None = None) -> None:
        self.url = url
        self.cookies: dict[str, str] = {}
        self.csrf: str | None = None
        self.forwarded_for = forwarded_for
        self.opener = urllib.request.build_opener(_Keep)

    def request(self, path: str, form: dict | None = None, *, headers: dict | None = None,
                cookies: bool = True) -> tuple[int, dict, bytes]:
        import urllib.error
        import urllib.parse

        data = urllib.parse.urlencode(form).encode() if form is not None else None
        req = urllib.request.Request(self.url + path, data=data, headers=dict(headers or {}))
        if cookies and self.cookies:
            req.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if self.forwarded_for:
            req.add_header("X-Forwarded-For", self.forwarded_for)
        try:
            with self.opener.open(req, timeout=30) as resp:
                status, head, body = resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as exc:
            status, head, body = exc.code, exc.headers, exc.read()
        for cookie in head.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";")[0].partition("=")
            if value:
                self.cookies[name] = value
            else:
                self.cookies.pop(name, None)
        return status, dict(head), body

    def login(self, user: str | None, password: str) -> int:
        form = {"password": password, "next": "/"}
        if user is not None:
            form["user"] = user
        status, _, _ = self.request("/login", form)
        if status == 303:
            self.csrf = json.loads(self.request("/api/me")[2])["csrf"]
        return status

    def post(self, path: str, form: dict, *, token: bool = True, headers: dict | None = None) -> tuple[int, dict]:
        """A state-changing request as the board's page sends it: its CSRF token in a header."""
        extra = {"X-CSRF-Token": self.csrf} if token and self.csrf else {}
        status, _, body = self.request(path, form, headers={**extra, **(headers or {})})
        return status, json.loads(body) if body.startswith(b"{") else {}
