"""The live picture of every table, as the pit board and `tablectl watch` show it.

:class:`Picture` is an observer of the pit service (``observer(table, kind, body)``, called on the
service's one thread with each accepted status, state and event, each (table, seq) once), and of
`tablectl watch`, which hands it what passed its checks the same way. It is the one model of
"every table at a glance": the browser's tiles and the terminal's lines (controller.pit.watch.glance) are
both read from :meth:`Picture.tiles`, so the two cannot disagree about a table -- which alarms are
open, how fast it deals -- however each draws it. It keeps
what a floor supervisor looks at per table (a *tile*: game, online, state, prompt, round, the last
results, device health, hands per hour, the alarms still open) and what a table's page adds (the
round history, the alarm log, and the game's scoreboard: baccarat's roads). The web side reads it
through :meth:`Picture.tiles_json`, :meth:`Picture.detail_json` and :meth:`Picture.stream` (a snapshot
and then a stream of patches, controller.pit.board.feed); nothing here waits for a browser. Each
table's tile is encoded once per change and kept, so a snapshot for a crowd of browsers joins
strings rather than encode the floor under the lock the pit service's thread needs.

It shows only what the tables published, and only the fields it names: whatever else a payload
carries is not passed on. Payloads are untrusted: a field of the wrong type is left out, text is
cut to :data:`TEXT`, and nothing a payload holds can raise out of :meth:`Picture.__call__`.

**Late events.** An event whose seq is below the highest seen of its table (a replay filling a
gap) goes into the results, the history, the pace and the scoreboard, in seq order, but does not
change what the table is doing now (its state, prompt, round, devices, open alarms): newer events
already said that. A retained state is believed when its seq is at least the highest event seq
seen. A birth whose ``next_seq`` is below what was seen means the table's seq started again
(``tablectl journal new``): its events count as new from there. A retained status cleared (an
empty payload: the table was taken off the floor) takes the table out of the picture.

**Alarms** stay open until the table says it has gone on (the table never publishes "cleared"):

- a new birth (the table restarted) clears them all;
- ``round_start`` clears warnings and faults, and ``outbox_full`` (a round starts only once the
  backlog is down);
- ``resume`` and ``void`` clear warnings and faults; a ``transition`` out of ``fault`` clears faults;
- a ``deck_check`` that passed clears ``deck_check_failed`` and the shuffler's (``shuffler_*``);
  a ``shuffle`` that counted right clears ``shuffle_count`` and the shuffler's;
- a ``device`` event ``online`` clears that device's (``<device>_*``);
- a ``table`` event ``open`` (the pit reopened it) clears the critical ones.

Every alarm, cleared or not, stays in the table's alarm log (the last :data:`ALARM_LOG`).

**Hands per hour**: the pace of the last hour of results (:data:`WINDOW`), by the tables' own
clocks (the events' ``ts``): results in the window, less one, over the time between the first and
the last of them. It is the pace while the table deals; a table that stopped keeps its last pace.

**Integrity figures** (issue 25.3): a table's retained ``dice`` and ``integrity`` topics, as the pit
service hands them over (kinds ``dice`` and ``integrity``, checked against their schemas), are read
by controller.pit.figures and shown on the table's page (``figures``); the tile carries only
which monitors flagged something (``integrity``). They make no tile: figures of a table not seen yet
(they may come before its status) are kept, for :data:`MAX_TABLES` tables at most, until it is.

**Scoreboard**: a game whose registry entry has ``scoreboard`` (baccarat's roads) gets it drawn
from its results since the last ``shuffle`` event (the shoe, its last :data:`SHOE` results),
recomputed on each result; when older results of the shoe were let go, ``earlier`` says how many.
"""

from __future__ import annotations

import bisect
import json
import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.pit.board.areas import Areas
from controller.pit.board.collected import Collected
from controller.pit.board.feed import Client, Feed
from controller.pit.figures import KINDS, flags, read
from games import registry

log = logging.getLogger(__name__)

RESULTS = 5
"""Results a tile shows, newest first."""
HISTORY = 200
"""Rounds a table's page keeps."""
SHOE = 200
"""Results of a shoe the roads are drawn from: the last ones. An 8-deck shoe is some 85 hands, so
this is a whole shoe with room to spare; it bounds a table that never sends a ``shuffle`` event
(which would otherwise grow the shoe for ever and redraw every road over all of it each result)."""
ALARM_LOG = 50
"""Alarms a table's page keeps, open or cleared."""
CLEARED = 2
"""Alarms cleared lately a tile still shows (dimmed), newest first: one a dealer cleared at once
was still seen."""
WINDOW = 3600.0
"""Seconds of results the hands-per-hour pace is taken over."""
TEXT = 300
"""Characters of any text a payload gives (a prompt, an alarm's message) the board shows."""
ACKS_WAITING = 200
"""Acknowledgements a table keeps for alarms not seen yet (one replayed later finds its own)."""
MAX_TABLES = 5000
"""Tables the picture holds at most; a message for one more is counted and left out (the service
admits tables; this only bounds memory should anything get through)."""
MAX_PITS = 64
"""Pit services whose health the picture keeps at most."""
PIT_FEED = "/pit"
"""The feed's key for the pit's health patches: no table's page (a table id has no ``/``)."""


@dataclass
class _Alarm:
    code: str
    severity: str
    message: str
    action: str
    round: int | None
    seq: int
    ts: float | None
    cleared: str | None = None
    """Why it is no longer open (what the table did), or None."""
    cleared_seq: int | None = None
    ack: dict[str, Any] | None = None
    """Who acknowledged it, when, with what note and assignee (controller.pit.acks): someone owns
    it. It stays open until the table has gone on."""

    def to_json(self) -> dict[str, Any]:
        out = {"code": self.code, "severity": self.severity, "message": self.message, "action": self.action,
               "round": self.round, "seq": self.seq, "ts": self.ts, "ack": self.ack}
        if self.cleared is not None:
            out["cleared"] = self.cleared
            out["cleared_seq"] = self.cleared_seq
        return out


@dataclass
class _Table:
    id: str
    game: str | None = None
    title: str | None = None
    online: bool | None = None
    birth: int | None = None
    version: str | None = None
    reason: str | None = None
    status: str | None = None
    """``open`` or ``closed``, from the table's ``table`` events."""
    devices: dict[str, str] = field(default_factory=dict)
    """Each device's link as the table last said: ``online``, ``offline`` or ``unknown``."""
    device_since: dict[str, float | None] = field(default_factory=dict)
    """When each device's link became what it is (the table's clock), when the table said."""
    device_faults: dict[str, tuple[str, float | None]] = field(default_factory=dict)
    """A fault a device reported (its code, when), until the device is back online or the table
    has gone on past it (what clears a warning alarm clears it too)."""
    held: bool = False
    """The table's outbox is at its cap: it deals no new round (its retained state says)."""
    state: str | None = None
    state_since: float | None = None
    """When the table entered its state (a transition event's ts, or a retained state's)."""
    round: int | None = None
    prompt: str | None = None
    expect: str | None = None
    player_dealer: int | None = None
    head: int = 0
    """The highest event seq seen (or vouched for by a retained state)."""
    last_ts: float | None = None
    results: list[dict[str, Any]] = field(default_factory=list)
    result_ts: list[float] = field(default_factory=list)
    history: dict[int, dict[str, Any]] = field(default_factory=dict)
    alarms: list[_Alarm] = field(default_factory=list)
    log: deque[_Alarm] = field(default_factory=lambda: deque(maxlen=ALARM_LOG))
    shoe_start: int = 0
    shoe: list[tuple[int, Mapping[str, Any]]] = field(default_factory=list)
    shoe_earlier: int = 0
    """Results of this shoe let go (beyond :data:`SHOE`): the page says its roads start later."""
    scoreboard: Mapping[str, Any] | None = None
    acks_waiting: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Acknowledgements of alarms not seen yet, by the alarm's seq."""
    tile_json: str | None = None
    """The tile as JSON, kept until the table changes: a snapshot for a browser joins these rather
    than encode every table again (a crowd of browsers reconnecting costs the picture's lock little)."""
    detail_json: str | None = None
    """The page as JSON, likewise."""
    area: str | None = None
    """Where the table stands on the floor (controller.pit.board.areas), if the pit's map says."""
    gaps: dict[str, list[int]] | None = None
    """Its seqs missing from the archive: ``open`` (still asked for) and ``unfillable`` (the table
    cannot send them), each ``[runs, seqs]``, as the archiving services last said."""
    collected: dict[str, Any] | None = None
    """What it collected this shift (controller.pit.board.collected), for a poker-room table."""
    figures: dict[str, Any] = field(default_factory=dict)
    """Its integrity figures (controller.pit.figures): ``dice`` and ``integrity``, as published."""

    def condition(self) -> dict[str, Any]:
        """What is wrong with the table now, worst first, and the worst level: derived from its
        status, its state and devices as last said, and its open alarms -- never from a cleared
        alarm alone, so a table in fault, held, or with a device down shows so until the cause is
        gone (issue 22). The board's tile and `tablectl watch` both show this."""
        problems: list[dict[str, Any]] = []

        def add(level: str, what: str, since: float | None = None, code: str | None = None,
                ack: dict[str, Any] | None = None, seq: int | None = None) -> None:
            problems.append({"level": level, "what": what, "since": since, "code": code, "ack": ack, "seq": seq})
        if self.online is False:
            add("offline", f"offline: {self.reason}" if self.reason else "offline")
        elif self.online is None:
            add("unknown", "no status from the table yet")
        own = next((a for a in self.alarms if self.state == "fault" and a.cleared is None and a.severity == "fault"
                    and a.message and self.prompt and a.message in self.prompt), None)
        if self.state == "fault":   # the fault's own alarm is said here once, with its acknowledgement
            add("fault", _fault_line(self.prompt), self.state_since, "fault", own.ack if own else None,
                own.seq if own else None)
        if self.held:
            add("critical", "outbox full: the broker has not acknowledged its events; no new round is dealt")
        waiting = self.expect == "device"
        for name, link in sorted(self.devices.items()):
            if link == "offline":
                add("fault" if waiting else "warning", f"{name} offline", self.device_since.get(name),
                    f"{name}_offline")
        for name, (code, ts) in sorted(self.device_faults.items()):
            add("warning", f"{name} reported {code}", ts, f"{name}_{code}")
        said = {p["code"] for p in problems}
        for alarm in self.alarms:
            if alarm is own:
                continue
            if alarm.cleared is None and alarm.code not in said:
                add(alarm.severity, alarm.message or alarm.code, alarm.ts, alarm.code, alarm.ack, alarm.seq)
        problems.sort(key=lambda p: (-LEVELS[p["level"]], p["since"] or 0.0))
        level = problems[0]["level"] if problems else "ok"
        return {"level": level, "problems": problems}

    def tile(self, window: float) -> dict[str, Any]:
        unwell = {d: s for d, s in sorted(self.devices.items()) if s != "online"} or self.device_faults
        return {
            "table": self.id, "game": self.game, "title": self.title, "online": self.online,
            "birth": self.birth, "version": self.version, "reason": self.reason, "status": self.status,
            "state": self.state, "state_since": self.state_since, "held": self.held,
            "condition": self.condition(),
            "round": self.round, "prompt": self.prompt, "expect": self.expect,
            "player_dealer": self.player_dealer,
            "results": list(reversed(self.results)),
            "devices": dict(sorted(self.devices.items())),
            "device_faults": {name: code for name, (code, _ts) in sorted(self.device_faults.items())},
            "health": "unknown" if not self.devices else ("ok" if not unwell else "attention"),
            "hands_per_hour": _pace(self.result_ts, window),
            "alarms": [a.to_json() for a in reversed(self.alarms)],
            "cleared": [a.to_json() for a in reversed(self.log) if a.cleared is not None][:CLEARED],
            "last_seq": self.head or None, "last_ts": self.last_ts,
            "area": self.area, "gaps": self.gaps, "collected": self.collected,
            "integrity": flags(self.figures),
        }

    def detail(self, window: float) -> dict[str, Any]:
        return {**self.tile(window),
                "history": [self.history[r] for r in sorted(self.history, reverse=True)],
                "alarm_log": [a.to_json() for a in reversed(self.log)],
                "scoreboard": self.scoreboard, "figures": self.figures}


class Picture:
    """Every table's tile and page, kept from the pit service's messages; thread-safe.

    ``picture(table, kind, body)`` takes one message (the observer interface); it never raises and
    never blocks, and does nothing per browser (a change is encoded once for all of them, and each
    browser is a cursor into a bounded log: controller.pit.board.feed)."""

    def __init__(self, *, window: float = WINDOW, history: int = HISTORY, feed: Feed | None = None,
                 areas: Areas | None = None, collected: Collected | None = None) -> None:
        self.window = window
        self.history = history
        self.feed = feed or Feed()
        self.areas = areas or Areas()
        self.collected = collected or Collected()
        self._pits: dict[str, dict[str, Any]] = {}
        """Each pit service's health, by its client id (its retained status, checked)."""
        self._gaps: dict[str, dict[str, list[int]]] = {}
        self._figures: dict[str, dict[str, Any]] = {}
        """Each table's integrity figures, by table id, its tile made or not (they may come first)."""
        self.errors = 0
        """Messages whose handling failed (a bug, or a payload nothing foresaw): logged, skipped."""
        self.ignored = 0
        """Messages left out: not a status, state or event; an event without a usable seq; a table
        beyond :data:`MAX_TABLES`."""
        self._tables: dict[str, _Table] = {}
        self._games: dict[str, registry.GameEntry | None] = {}
        self._lock = threading.RLock()
        self._version = 0

    # -- the observer ---------------------------------------------------------------

    def __call__(self, table: str, kind: str, body: dict) -> None:
        try:
            with self._lock:
                changed = self._apply(table, kind, body)
                if changed is not None:
                    self._version += 1
                    t = self._tables[table]
                    t.tile_json = t.detail_json = None
                    self._publish(t, changed)
        except Exception:
            self.errors += 1
            log.exception("pit board: a %s message of table %r could not be taken; skipped", str(kind)[:20],
                          str(table)[:64])

    # -- what the web reads ---------------------------------------------------------

    def tiles(self) -> dict[str, Any]:
        """Every table's tile, by table id, with the picture's version and the pit's health."""
        with self._lock:
            return {"version": self._version,
                    "tables": [self._tables[t].tile(self.window) for t in sorted(self._tables)],
                    "pit": self.pits()}

    def pits(self) -> list[dict[str, Any]]:
        """Every pit service heard of, by client id: whether it is online, archiving where, the
        database and the broker as it last said, its events waiting and refused (issue 21.4)."""
        with self._lock:
            return [self._pits[p] for p in sorted(self._pits)]

    def detail(self, table: str) -> dict[str, Any] | None:
        """One table's tile, history, alarm log and scoreboard; None for a table not seen."""
        with self._lock:
            t = self._tables.get(table)
            return None if t is None else {"version": self._version, "table": t.detail(self.window)}

    def tiles_json(self, resync: str | None = None) -> str:
        """:meth:`tiles` as JSON (with ``resync``, why a browser is given it again), made from each
        table's tile as encoded when it last changed."""
        with self._lock:
            tables = ", ".join(self._tile_json(self._tables[t]) for t in sorted(self._tables))
            extra = "" if resync is None else f", \"resync\": {json.dumps(resync)}"
            pit = json.dumps(self.pits())
            return f'{{"version": {self._version}, "tables": [{tables}], "pit": {pit}{extra}}}'

    def detail_json(self, table: str, resync: str | None = None) -> str | None:
        """:meth:`detail` as JSON; None for a table not seen. Encoded under the lock: the history's
        rounds are the picture's own, changing with the next message."""
        with self._lock:
            t = self._tables.get(table)
            if t is None:
                return None
            if t.detail_json is None:
                t.detail_json = json.dumps(t.detail(self.window))
            extra = "" if resync is None else f", \"resync\": {json.dumps(resync)}"
            return f'{{"version": {self._version}, "table": {t.detail_json}{extra}}}'

    def subscribe(self, table: str | None = None) -> tuple[dict[str, Any], Client]:
        """A snapshot (the tiles, or one table's detail) and the stream of what changes after it,
        taken together so that nothing falls between them."""
        with self._lock:
            if table is None:
                snapshot = self.tiles()
            else:
                snapshot = self.detail(table) or {"version": self._version, "table": None}
            return snapshot, self.feed.subscribe(table, self._version)

    def stream(self, table: str | None = None, last_id: str | None = None) -> tuple[bytes, Client]:
        """What a browser's event stream starts with, and its client (controller.pit.board.feed).

        A browser reconnecting (its ``Last-Event-ID``) whose patches since are all still held goes on
        where it was: nothing to start with. Any other gets the ``snapshot`` event: the tiles, or
        the table's page; after a reconnect that cannot go on, with ``resync`` saying why (it fell
        behind, the board restarted), which the page shows."""
        with self._lock:
            resync = None
            if last_id:
                client, resync = self.feed.resume(table, last_id, self._version)
                if client is not None:
                    return b"", client
            if table is None:
                snapshot = self.tiles_json(resync)
            else:
                extra = "" if resync is None else f", \"resync\": {json.dumps(resync)}"
                snapshot = self.detail_json(table, resync) or f'{{"version": {self._version}, "table": null{extra}}}'
            return self.feed.frame("snapshot", self._version, snapshot), self.feed.subscribe(table, self._version)

    def unsubscribe(self, client: Client) -> None:
        self.feed.unsubscribe(client)

    def _tile_json(self, t: _Table) -> str:
        if t.tile_json is None:
            t.tile_json = json.dumps(t.tile(self.window))
        return t.tile_json

    # -- applying a message ---------------------------------------------------------

    def _apply(self, table: str, kind: str, body: Any) -> set[str] | None:
        """Take one message; what changed beyond the tile (``history``, ``alarm_log``,
        ``scoreboard``, ``figures``), or None when nothing did."""
        if kind not in ("status", "state", "event", "ack", "pit", *KINDS) or not isinstance(body, dict) \
                or not isinstance(table, str):
            self.ignored += 1
            return None
        if kind == "pit":
            self._pit(table, body)
            return None
        if kind in KINDS:
            return self._take_figures(table, kind, body)
        if kind == "status" and not body:
            self._forget(table)
            return None
        t = self._tables.get(table)
        if t is None:
            if len(self._tables) >= MAX_TABLES or kind == "ack":   # an acknowledgement makes no table
                self.ignored += 1
                return None
            t = self._tables[table] = _Table(table, area=self.areas.of(table), gaps=self._gaps.get(table),
                                             figures=dict(self._figures.get(table, {})))
        if kind == "status":
            return self._status(t, body)
        if kind == "state":
            return self._state(t, body)
        if kind == "ack":
            return self._ack(t, body)
        return self._event(t, body)

    def _take_figures(self, table: str, kind: str, body: dict) -> set[str] | None:
        """A table's ``dice`` or ``integrity`` figures (an empty body: cleared), kept whether its tile
        is made yet or not; what changed on its page, or None."""
        found = read(kind, body)
        have = self._figures.get(table)
        if have is None:
            if found is None:
                return None
            if len(self._figures) >= MAX_TABLES:
                self.ignored += 1
                return None
            have = self._figures[table] = {}
        if found is None:
            have.pop(kind, None)
        else:
            have[kind] = found
        if not have:
            del self._figures[table]
        t = self._tables.get(table)
        if t is None:
            return None
        t.figures = dict(have)
        return {"figures"}

    def _ack(self, t: _Table, body: dict) -> set[str] | None:
        """An acknowledgement (controller.pit.acks, checked by whoever hands it over): on its alarm,
        or kept until the alarm comes (a replay) -- a few hundred per table at most. One that names
        another alarm code than the alarm's (a table's seq started again; a forgery) is left out, and
        so is one older than the alarm's acknowledgement already (a message replayed): the newest
        acknowledgement is the alarm's owner."""
        seq = _int(body.get("alarm_seq"))
        if seq is None:
            self.ignored += 1
            return None
        ack = {k: body.get(k) for k in ("id", "by", "ts", "note", "assignee", "code")}
        for alarm in t.log:
            if alarm.seq == seq:
                return {"alarm_log"} if self._own(alarm, ack) else None
        if len(t.acks_waiting) < ACKS_WAITING or seq > min(t.acks_waiting):
            older = t.acks_waiting.get(seq)
            if older is None or _newer(ack, older):
                t.acks_waiting[seq] = ack
            while len(t.acks_waiting) > ACKS_WAITING:
                del t.acks_waiting[min(t.acks_waiting)]
        return None

    def _own(self, alarm: _Alarm, ack: dict[str, Any]) -> bool:
        """Put ``ack`` on ``alarm`` if it is this alarm's and newer than the one it has."""
        if ack.get("code") != alarm.code:
            self.ignored += 1
            return False
        if alarm.ack is not None and not _newer(ack, alarm.ack):
            return False
        alarm.ack = ack
        return True

    def open_alarm(self, table: str, seq: int) -> dict[str, Any] | None:
        """Table ``table``'s alarm ``seq`` while it is open (its code and its acknowledgement, if
        any): what a board's acknowledgement may name. None for an alarm cleared, or never seen."""
        with self._lock:
            t = self._tables.get(table)
            alarm = next((a for a in t.alarms if a.seq == seq and a.cleared is None), None) if t else None
            return None if alarm is None else {"code": alarm.code, "ack": dict(alarm.ack) if alarm.ack else None}

    def now(self, table: str) -> dict[str, Any] | None:
        """What table ``table`` is doing now (online, state, round), for a board's command; None
        for a table not seen."""
        with self._lock:
            t = self._tables.get(table)
            return None if t is None else {"online": t.online, "state": t.state, "round": t.round}

    def _pit(self, instance: str, body: dict) -> None:
        """A pit service's status (docs/pit.md, "The service's status"): its health for the board's
        summary, and each table's gaps from the archiving ones. Read field by field, as anything
        from the broker; an empty one (its retained status cleared) takes the service out."""
        instance = instance[:64]
        if not body:
            if self._pits.pop(instance, None) is None:
                return
        else:
            if instance not in self._pits and len(self._pits) >= MAX_PITS:
                self.ignored += 1
                return
            counters = body.get("counters") if isinstance(body.get("counters"), dict) else {}
            gaps = body.get("gaps")
            self._pits[instance] = {
                "id": instance, "online": body.get("online") is True, "archive": _text(body.get("archive"), 120),
                "db": body.get("db") if body.get("db") in ("up", "down") else None,
                "broker": body.get("broker") if body.get("broker") in ("connected", "disconnected") else None,
                "held": _int(counters.get("events_held")) or 0, "held_since": _ts(body.get("held_since")),
                "commit_lag": _ts(body.get("commit_lag")), "rejected": _int(counters.get("rejected")) or 0,
                "gaps": _gap_map(gaps) if isinstance(gaps, dict) else None, "ts": _ts(body.get("ts")),
                "broker_risks": [_text(r, 400) for r in body.get("broker_risks") or [] if isinstance(r, str)][:10]
                if isinstance(body.get("broker_risks"), list) else []}
        self._take_gaps()
        self._version += 1
        patch = json.dumps({"version": self._version, "pit": self.pits()})
        self.feed.publish(PIT_FEED, lambda: patch, lambda: patch, self._version)

    def _take_gaps(self) -> None:
        """Each table's gaps as the newest archiving service said them (the gaps are the database's:
        any archiving instance reads them all); a table whose gaps changed gets a new tile."""
        said = [p for p in self._pits.values() if p["gaps"] is not None]
        newest = max(said, key=lambda p: p["ts"] or 0.0)["gaps"] if said else {}
        if newest == self._gaps:
            return
        before, self._gaps = self._gaps, newest
        for name in set(before) | set(newest):
            t = self._tables.get(name)
            if t is not None and before.get(name) != newest.get(name):
                t.gaps = newest.get(name)
                t.tile_json = t.detail_json = None
                self._version += 1   # one version per patch: a browser resuming after it misses none
                self._publish(t, set())

    def _forget(self, table: str) -> None:
        """A retained status cleared: someone took the table off the floor (a table never clears its
        own status; stopping, it says ``online: false``). Its tile leaves the board and watch alike,
        rather than stand there offline for good; a browser on its page is told it has gone. Its
        rounds and alarms are in the archive; a new birth starts its picture afresh."""
        if self._tables.pop(table, None) is None:
            return
        self.collected.forget(table)
        self._version += 1
        patch = json.dumps({"version": self._version, "table": table, "tile": None})
        self.feed.publish(table, lambda: patch, lambda: patch, self._version)

    def _status(self, t: _Table, status: dict) -> set[str] | None:
        birth = _int(status.get("birth"))
        if status.get("online") is True:
            reborn = birth != t.birth   # a status is republished on every reconnect: the same birth
            if reborn and t.birth is not None:
                self._clear(t, lambda a: True, "the table restarted", None)
            if isinstance(status.get("devices"), dict) and (reborn or not t.devices):
                _take_devices(t, status["devices"], None)
            self._set_game(t, status.get("game"))
            t.version = _text(status.get("version"), 40)
            t.reason = None
            next_seq = _int(status.get("next_seq"))
            if reborn and next_seq is not None and next_seq - 1 < t.head:
                t.head = max(0, next_seq - 1)  # born again below what was seen: its seq started again
        else:
            t.reason = _text(status.get("reason"))
        t.online = status.get("online") is True
        t.birth = birth if birth is not None else t.birth
        t.alarms = [a for a in t.alarms if a.cleared is None]
        return {"alarm_log"}

    def _state(self, t: _Table, state: dict) -> set[str] | None:
        seq = _int(state.get("seq"))
        if seq is None or seq < t.head:
            return None  # older than the events already seen
        t.head = seq
        state_name = _text(state.get("state"), 40)
        if state_name != t.state:
            t.state_since = _ts(state.get("ts"))
        t.state = state_name
        t.round = _int(state.get("round"))
        outbox = state.get("outbox")
        if isinstance(outbox, dict) and isinstance(outbox.get("held"), bool):
            t.held = outbox["held"]
        if isinstance(state.get("devices"), dict):   # as the table knows them now (issue 22)
            _take_devices(t, state["devices"], _ts(state.get("ts")))
        prompt = state.get("prompt")
        if isinstance(prompt, dict):
            t.prompt, t.expect = _text(prompt.get("text")), _text(prompt.get("expect"), 20)
        pd = state.get("player_dealer")
        t.player_dealer = _int(pd.get("seat")) if isinstance(pd, dict) else None
        if t.game is None:
            self._set_game(t, state.get("game"))
        return set()

    def _event(self, t: _Table, env: dict) -> set[str] | None:
        seq = _int(env.get("seq"))
        if seq is None or seq < 1:
            self.ignored += 1
            return None
        kind = env.get("kind")
        data = env.get("data") if isinstance(env.get("data"), dict) else {}
        ts = env.get("ts") if isinstance(env.get("ts"), int | float) and not isinstance(env.get("ts"), bool) else None
        rnd = _int(env.get("round"))
        live = seq > t.head
        if live:
            t.head = seq
            t.last_ts = ts if ts is not None else t.last_ts
        changed: set[str] = set()
        if kind in ("result", "action_button") and self.collected.take(t.id, kind, ts, data):
            t.collected = self.collected.of(t.id)   # late events too: each seq comes here once
        if kind == "result":
            self._result(t, seq, rnd if rnd is not None else _int(data.get("round")), ts, data, changed)
        elif kind == "void":
            vround = _int(data.get("round")) or rnd
            if vround is not None:
                self._entry(t, vround, seq, ts)["void"] = {"reason": _text(data.get("reason")),
                                                           "by": _text(data.get("by"), 20)}
                changed.add("history")
            if live:
                self._clear(t, lambda a: a.severity in ("warning", "fault"), "the round was voided", seq)
        elif kind == "alarm":
            alarm = _Alarm(_text(data.get("code"), 60) or "alarm", _severity(data.get("severity")),
                           _text(data.get("message")) or "", _text(data.get("action")) or "", rnd, seq, ts)
            waiting = t.acks_waiting.pop(seq, None)
            if waiting is not None:
                self._own(alarm, waiting)
            t.log.append(alarm)
            if live:
                t.alarms = [a for a in t.alarms if a.code != alarm.code] + [alarm]
            if rnd is not None:
                entry = self._entry(t, rnd, None, None)
                entry["alarms"] = [*entry.get("alarms", []), alarm.code][-10:]
                changed.add("history")
            changed.add("alarm_log")
        elif kind == "shuffle":
            if seq > t.shoe_start:
                t.shoe_start = seq
                t.shoe = [(s, d) for s, d in t.shoe if s > seq]
                t.shoe_earlier = 0
                self._draw(t, changed)
            if live and data.get("ok") is True:
                self._clear(t, lambda a: a.code == "shuffle_count" or a.code.startswith("shuffler_"),
                            "the shuffle counted right", seq)
        elif live:
            self._live(t, kind, data, seq, rnd, ts)
        still = [a for a in t.alarms if a.cleared is None]
        if len(still) != len(t.alarms):
            t.alarms = still
            changed.add("alarm_log")
        return changed

    def _live(self, t: _Table, kind: Any, data: dict, seq: int, rnd: int | None, ts: float | None) -> None:
        """What an event says about the table now (only an event newer than any seen)."""
        if kind == "prompt":
            t.prompt, t.expect = _text(data.get("text")), _text(data.get("expect"), 20)
        elif kind == "transition":
            to = _text(data.get("to"), 40)
            if to and to != t.state:
                t.state, t.state_since = to, ts
            if data.get("from") == "fault":
                self._clear(t, lambda a: a.severity == "fault", "the round left the fault", seq)
        elif kind == "round_start":
            t.round = _int(data.get("round")) or rnd
            self._clear(t, lambda a: a.severity in ("warning", "fault") or a.code == "outbox_full",
                        "a new round started", seq)
        elif kind == "resume":
            self._clear(t, lambda a: a.severity in ("warning", "fault"), "the round resumed", seq)
        elif kind == "deck_check" and data.get("ok") is True:
            self._clear(t, lambda a: a.code == "deck_check_failed" or a.code.startswith("shuffler_"),
                        "the deck check passed", seq)
        elif kind == "device":
            device = _text(data.get("device"), 40)
            status = _text(data.get("status"), 20)
            if device and status and (device in t.devices or len(t.devices) < 32):
                link = status
                if status == "fault":   # a report, not a link state: the device is there to send it
                    t.device_faults[device] = (_text(data.get("code"), 40) or "a fault", ts)
                    link = "online"
                if t.devices.get(device) != link:
                    t.device_since[device] = ts
                t.devices[device] = link
                if status == "online":
                    t.device_faults.pop(device, None)
                    self._clear(t, lambda a: a.code.startswith(device + "_"), f"the {device} is online", seq)
        elif kind == "table":
            t.status = _text(data.get("status"), 20)
            if t.status == "open":
                self._clear(t, lambda a: a.severity == "critical", "the table was opened", seq)
        elif kind == "player_dealer":
            t.player_dealer = _int(data.get("seat"))

    def _result(self, t: _Table, seq: int, rnd: int | None, ts: float | None, data: dict,
                changed: set[str]) -> None:
        summary = self._summary(t.game, data)
        item = {"round": rnd, "seq": seq, "ts": ts, "summary": summary}
        keys = [r["seq"] for r in t.results]
        t.results.insert(bisect.bisect(keys, seq), item)
        del t.results[:-RESULTS]
        if ts is not None:
            bisect.insort(t.result_ts, ts)
            cut = bisect.bisect_left(t.result_ts, t.result_ts[-1] - self.window)
            del t.result_ts[:cut]
        if rnd is not None:
            entry = self._entry(t, rnd, seq, ts)
            entry["summary"] = summary
            changed.add("history")
        entry_game = self._game(t.game)
        if entry_game is not None and entry_game.scoreboard is not None and seq > t.shoe_start:
            keys = [s for s, _ in t.shoe]
            t.shoe.insert(bisect.bisect(keys, seq), (seq, data))
            if len(t.shoe) > SHOE:
                t.shoe_earlier += len(t.shoe) - SHOE
                del t.shoe[:-SHOE]
            self._draw(t, changed)

    def _draw(self, t: _Table, changed: set[str]) -> None:
        entry = self._game(t.game)
        if entry is None or entry.scoreboard is None:
            return
        t.scoreboard = dict(entry.scoreboard([d for _, d in t.shoe]))
        if t.shoe_earlier:
            t.scoreboard["earlier"] = t.shoe_earlier
        changed.add("scoreboard")

    def _entry(self, t: _Table, rnd: int, seq: int | None, ts: float | None) -> dict[str, Any]:
        entry = t.history.get(rnd)
        if entry is None:
            entry = t.history[rnd] = {"round": rnd, "seq": seq, "ts": ts}
            if len(t.history) > self.history:
                del t.history[min(t.history)]
        elif seq is not None and (entry.get("seq") is None or seq > entry["seq"]):
            entry["seq"], entry["ts"] = seq, ts
        entry["changed"] = True
        return entry

    def _clear(self, t: _Table, which: Callable[[_Alarm], bool], why: str, seq: int | None) -> None:
        """Close the open alarms ``which`` picks; a device's reported fault goes with them when a
        warning of that device would (the table has gone on past it)."""
        probe = _Alarm("", "warning", "", "", None, 0, None)
        for device in list(t.device_faults):
            probe.code = f"{device}_{t.device_faults[device][0]}"
            if which(probe):
                del t.device_faults[device]
        for alarm in t.alarms:
            if alarm.cleared is None and which(alarm):
                alarm.cleared, alarm.cleared_seq = why, seq

    def _set_game(self, t: _Table, game: Any) -> None:
        if isinstance(game, str) and game:
            t.game = game[:40]
            entry = self._game(t.game)
            t.title = entry.title if entry is not None else None

    def _game(self, game: str | None) -> registry.GameEntry | None:
        if game is None:
            return None
        if game not in self._games:
            try:
                self._games[game] = registry.get(game)
            except KeyError:
                self._games[game] = None  # a game this pit does not know: its results read as data
        return self._games[game]

    def _summary(self, game: str | None, data: dict) -> str:
        entry = self._game(game)
        if entry is not None and entry.summary is not None:
            try:
                return _text(entry.summary(data)) or ""
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                pass  # a result the game's summary cannot read: shown as data
        if not data:
            return "result (no data)"
        return _text("result: " + ", ".join(f"{k}={json.dumps(v, separators=(',', ':'))}"
                                            for k, v in list(data.items())[:12])) or "result"

    # -- the change feed ------------------------------------------------------------

    def _publish(self, t: _Table, changed: set[str]) -> None:
        version = self._version
        head = f'{{"version": {version}, "table": {json.dumps(t.id)}, "tile": '

        # Made only for a browser that wants it (the feed calls board() and page() at once, under
        # the picture's lock), each once for every browser: `tablectl watch` has no browser and
        # reads tiles per frame. The tile is encoded once for both, and kept for the snapshots.
        def board() -> str:
            return head + self._tile_json(t) + "}"

        def page() -> str:
            extra = {}
            if "history" in changed:
                extra["history"] = rounds
            if "alarm_log" in changed:
                extra["alarm_log"] = [a.to_json() for a in reversed(t.log)]
            if "scoreboard" in changed:
                extra["scoreboard"] = t.scoreboard
            if "figures" in changed:
                extra["figures"] = t.figures
            more = json.dumps(extra)[1:-1]
            return head + self._tile_json(t) + (", " + more if more else "") + "}"

        rounds = [e for e in t.history.values() if e.pop("changed", False)]
        self.feed.publish(t.id, board, page, version)


LEVELS: dict[str, int] = {"critical": 5, "fault": 4, "offline": 3, "warning": 2, "unknown": 1, "ok": 0}
"""A tile's levels, worst first: the board sorts tables by them (issue 22)."""


def floor_order(tiles: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tiles as a floor supervisor reads them (issue 22): tables that need attention first, the
    worst level first and, within one, the oldest problem first; then by pit area (a table in no
    area after the named ones) and table id. The board (board.js ``floorOrder``, the same key) and
    `tablectl watch` both show this order."""
    def key(tile: dict[str, Any]) -> tuple:
        problems = tile["condition"]["problems"]
        oldest = min((p["since"] for p in problems if p["since"] is not None), default=float("inf"))
        area = tile.get("area")
        return (-LEVELS[tile["condition"]["level"]], oldest, area is None, area or "", tile["table"])
    return sorted(tiles, key=key)


def _fault_line(prompt: str | None) -> str:
    """A fault's prompt without what follows "To go on" (the board shows the prompt beside it)."""
    if not prompt:
        return "in fault"
    text = prompt.removeprefix("Fault: ").split(" To go on,")[0].rstrip(". ")
    return f"in fault: {text}"


def _take_devices(t: _Table, devices: dict, ts: float | None) -> None:
    """Devices as a birth or a retained state lists them: a ``fault`` there is a device that is
    connected and reported a fault (which, the list does not say)."""
    for name, status in list(devices.items())[:32]:
        name, status = str(name)[:40], str(status)[:20]
        link = "online" if status == "fault" else status
        if t.devices.get(name) != link:
            t.device_since[name] = ts
        t.devices[name] = link
        if status == "fault":
            t.device_faults.setdefault(name, ("a fault", ts))
        elif status == "online":
            t.device_faults.pop(name, None)


def _newer(ack: dict[str, Any], than: dict[str, Any]) -> bool:
    """Whether ``ack`` came after ``than`` (by when it was made; the same one again is not newer)."""
    a, b = _ts(ack.get("ts")) or 0.0, _ts(than.get("ts")) or 0.0
    return ack.get("id") != than.get("id") and (a, str(ack.get("id"))) > (b, str(than.get("id")))


def _gap_map(gaps: dict) -> dict[str, dict[str, list[int]]]:
    """A status's ``gaps`` (archive.gap_summary), kept only where it is what it should be."""
    out: dict[str, dict[str, list[int]]] = {}
    for table, kinds in list(gaps.items())[:500]:
        if not isinstance(table, str) or len(table) > 64 or not isinstance(kinds, dict):
            continue
        runs = {k: [v[0], v[1]] for k, v in kinds.items() if k in ("open", "unfillable") and isinstance(v, list)
                and len(v) == 2 and all(_int(x) is not None and x >= 0 for x in v)}
        if runs:
            out[table] = runs
    return out


def _ts(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _pace(stamps: list[float], window: float) -> float | None:
    if len(stamps) < 2:
        return None
    recent = stamps[bisect.bisect_left(stamps, stamps[-1] - window):]
    span = recent[-1] - recent[0]
    if len(recent) < 2 or span <= 0:
        return None
    return round((len(recent) - 1) * 3600.0 / span, 1)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: Any, limit: int = TEXT) -> str | None:
    if not isinstance(value, str):
        return None
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _severity(value: Any) -> str:
    return value if value in ("warning", "fault", "critical") else "warning"
