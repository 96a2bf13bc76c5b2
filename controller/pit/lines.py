"""What a pit subscriber sees, as lines of text: for `tablectl watch` and the demo.

It de-duplicates by ``seq`` (QoS 1 is at least once) and keeps track of
gaps, so the person watching knows whether they missed anything, and
`tablectl watch --replay` can ask the table for what is missing. A face-down card
prints as ``??`` because that is all a subscriber is ever told.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games import registry

REPLAY_LIMIT = 10_000
"""The most events one ``cmd/replay`` may ask for (controller.table.outbox.REPLAY_LIMIT)."""


@dataclass
class SeqTracker:
    """De-duplication and gap detection per table, by ``seq``.

    A gap is remembered as ranges of missing seqs, so that an event arriving
    late (a replay, or a resend after a reconnect) fills its place instead of
    being taken for a duplicate; :meth:`take_gaps` hands each newly found
    gap over once, for a ``cmd/replay``.
    """

    last: dict[str, int] = field(default_factory=dict)
    duplicates: int = 0
    gaps: int = 0
    """Seqs found missing so far (filled or not)."""
    filled: int = 0
    """Of those, how many arrived later."""
    since: int | None = None
    """Every seq from this one on is wanted: a table's first event after it is a gap."""
    _missing: dict[str, list[list[int]]] = field(default_factory=dict)
    _new: list[tuple[str, int, int]] = field(default_factory=list)

    def accept(self, table: str, seq: int) -> bool:
        """True the first time ``seq`` of ``table`` is seen."""
        prev = self.last.get(table)
        if prev is None and self.since is not None and seq > self.since:
            prev = self.since - 1
        if prev is not None and seq <= prev:
            if self._fill(table, seq):
                self.filled += 1
                return True
            self.duplicates += 1
            return False
        if prev is not None and seq != prev + 1:
            self.gaps += seq - prev - 1
            self._missing.setdefault(table, []).append([prev + 1, seq - 1])
            self._new.append((table, prev + 1, seq - 1))
        self.last[table] = seq
        return True

    def missing(self, table: str | None = None) -> int:
        """Seqs still missing, of one table or of all."""
        tables = [table] if table is not None else list(self._missing)
        return sum(hi - lo + 1 for t in tables for lo, hi in self._missing.get(t, []))

    def take_gaps(self) -> list[tuple[str, int, int]]:
        """Gaps found since the last call, as ``(table, first, last)``, whole: how much of
        each to ask for, and in which requests, is the asker's (controller.pit.watch.command), which
        knows its limits. (Split here, a gap of 1e9 seqs was 100,000 tuples.)"""
        out, self._new = self._new, []
        return out

    def missing_in(self, table: str, lo: int, hi: int) -> tuple[int, int] | None:
        """The first and the last seq still missing in ``lo..hi``, or None when nothing
        is: a replay request is cut down to what has not arrived meanwhile."""
        inside = [(max(a, lo), min(b, hi)) for a, b in self._missing.get(table, []) if a <= hi and b >= lo]
        return (min(a for a, _ in inside), max(b for _, b in inside)) if inside else None

    def forget(self, table: str) -> None:
        """Start ``table`` afresh: its next event is taken as it comes, nothing is missing.
        For a table whose own word (its status or state) shows that what was tracked was
        not its sequence (an event with a seq it never reached got through)."""
        self.last.pop(table, None)
        self._missing.pop(table, None)
        self._new = [g for g in self._new if g[0] != table]

    def _fill(self, table: str, seq: int) -> bool:
        ranges = self._missing.get(table, [])
        for i, (lo, hi) in enumerate(ranges):
            if lo <= seq <= hi:
                ranges[i:i + 1] = [r for r in ([lo, seq - 1], [seq + 1, hi]) if r[0] <= r[1]]
                return True
        return False


class PitView:
    """Turns events into the lines a pit supervisor wants to read, one line per event worth
    reading. How a game's events read is the game's (games.registry ``narrate``, ``legend`` and
    ``summary``): the view learns each table's game from its birth message (:meth:`status_line`),
    or is told it (``game``, the demo). A device's status is said once, and again only when it
    changes: what a table's devices report before anything else of it is said in one line."""

    def __init__(self, verbose: bool = False, game: str | None = None) -> None:
        self.verbose = verbose
        self.game = game
        self.games: dict[str, str] = {}
        self.seqs = SeqTracker()
        self.results = 0
        self._devices: dict[str, dict[str, str]] = {}
        self._held: dict[str, dict[str, str]] = {}
        self._started: set[str] = set()
        self._told: set[tuple[str | None, str]] = set()

    def feed(self, env: dict) -> list[str]:
        table = str(env.get("table", "?"))
        if not self.seqs.accept(table, int(env.get("seq", -1))):
            return []
        kind, data = env.get("kind"), env.get("data", {})
        tag = f"[{table} #{env.get('seq')}]"
        if kind == "device" and isinstance(data, dict):
            return [f"{tag} {line}" for line in self._device(table, data)]
        if kind == "result":
            self.results += 1
        lines = self._lines(table, str(kind), data if isinstance(data, dict) else {})
        if lines:
            lines = self._held_devices(table) + lines
        return [f"{tag} {line}" for line in self._legend(table, lines)]

    def _lines(self, table: str, kind: str, data: dict) -> list[str]:
        game = self.games.get(table, self.game)
        told = _narrated(game, kind, data)
        if told is not None and kind in ("result", "action_button"):
            return [f"  {line}" for line in told]
        if kind == "round_start":
            last = " (last of the shoe)" if data.get("last_of_shoe") else ""
            pd = f": player-dealer seat {data['player_dealer']}" if data.get("player_dealer") else ""
            return [f"round {data.get('round')}{pd}{last}"]
        if kind == "card":
            where = f"seat {data['seat']}" if data.get("hand") == "seat" else data.get("hand")
            return [f"  {where} <- {data.get('card') or 'face down'}"] if self.verbose else []
        if kind == "reveal":
            where = f"seat {data['seat']}" if data.get("hand") == "seat" else data.get("hand")
            shown = data.get("card") or " ".join(data.get("cards", []))
            return [f"  {where} turned up: {shown}"] if self.verbose else []
        if kind == "result":
            return [f"  {self._summary(table, data)}"]
        if kind == "action_button":
            if "card" not in data:   # placed by other means than a card's count
                rest = {k: v for k, v in data.items() if k != "seat"}
                return [f"  action button: seat {data.get('seat')}: {_fmt(rest)}"]
            return [f"  action button: seat {data.get('seat')} ({data.get('card')} counts {data.get('count')})"]
        if kind == "hand_status":   # a ruling on a seat's hand the table was told of (a count, the winner)
            return [f"  seat {data.get('seat')} {data.get('status')}: {data.get('reason')}"]
        if kind == "alarm":
            extra = f" [{data['action']}]" if data.get("action") else ""
            return [f"ALARM {data.get('severity', '')} {data.get('code')}: {data.get('message')}{extra}"]
        said = _said(kind, data)
        if said is not None:
            return said
        if kind in ("command", "line_errors", "resume"):
            return [f"{kind}: {_fmt(data)}"]
        if self.verbose and kind in ("prompt", "transition", "lights", "button"):
            return [f"{kind}: {_fmt(data)}"]
        return []

    def _device(self, table: str, data: dict) -> list[str]:
        """Said when it changes; before anything else of the table, held for one line."""
        name, status = str(data.get("device")), str(data.get("status"))
        known = self._devices.setdefault(table, {})
        if known.get(name) == status:
            return []   # the same status again (with the device's firmware, or after a reconnect)
        known[name] = status
        if table not in self._started:
            self._held.setdefault(table, {})[name] = status
            return []
        why = f": {data['detail']}" if status != "online" and data.get("detail") else ""
        code = f" ({data['code']})" if status != "online" and data.get("code") else ""
        return [f"device {name} {status.upper() if status != 'online' else status}{code}{why}"]

    def _held_devices(self, table: str) -> list[str]:
        self._started.add(table)
        held = self._held.pop(table, None)
        if not held:
            return []
        return ["devices: " + ", ".join(f"{name} {status}" for name, status in sorted(held.items()))]

    def _legend(self, table: str, lines: list[str]) -> list[str]:
        """A term of the game's legend, told under the first line that uses it."""
        game = self.games.get(table, self.game)
        try:
            legend = registry.get(game).legend if game else {}
        except KeyError:
            legend = {}
        out = []
        for line in lines:
            out.append(line)
            for term, meaning in legend.items():
                if (game, term) not in self._told and term.lower() in line.lower():
                    self._told.add((game, term))
                    out.append(f"    ({term}: {meaning.rstrip('.')})")
        return out

    def _summary(self, table: str, data: dict) -> str:
        return result_summary(self.games.get(table, self.game), data)

    def status_line(self, topic: str, status: dict) -> str:
        """The retained birth/death message: is the table up, and which birth is it (and its game,
        so that its results read as that game's)."""
        table = topic.rsplit("/", 2)[-2] if topic.count("/") >= 2 else topic
        if status.get("online"):
            if isinstance(status.get("game"), str):
                self.games[table] = status["game"]
            return (f"[{table}] ONLINE birth {status.get('birth')}: {status.get('game')} "
                    f"{status.get('version', '')}, next seq {status.get('next_seq')}, "
                    f"devices {_fmt(status.get('devices') or {})}")
        return f"[{table}] OFFLINE (birth {status.get('birth')})"



    @staticmethod
    def reply_line(topic: str, reply: dict) -> str:
        """A command's reply (``watch --replay`` hears its own)."""
        parts = topic.split("/")
        table = parts[-4] if len(parts) >= 4 else topic
        body = _fmt(reply.get("data") or {}) if reply.get("ok") else f"refused: {reply.get('error')}"
        return f"[{table}] {reply.get('command')} {reply.get('id')}: {body}"


def result_summary(game: str | None, data: dict) -> str:
    """One line for a ``result`` event's data: the game's own reading (games.registry ``summary``),
    or the data as it is when the game is not known or its summary cannot read it."""
    try:
        summary = registry.get(game).summary if game else None
    except KeyError:
        summary = None
    if summary is not None:
        try:
            return summary(data)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass  # a result the game's summary cannot read: shown as it is
    return f"result: {_fmt(data)}"


def _narrated(game: str | None, kind: str, data: dict) -> list[str] | None:
    """The game's own lines for an event (games.registry ``narrate``), or None: the game has none
    for this kind, or cannot read this event (it is then shown the generic way)."""
    try:
        narrate = registry.get(game).narrate.get(kind) if game else None
    except KeyError:
        return None
    if narrate is None:
        return None
    try:
        return list(narrate(data))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None


def _said(kind: str, data: dict) -> list[str] | None:
    """The table's own events (not a game's) in words."""
    if kind == "table":
        return [f"table {data.get('status')}"]
    if kind == "deck_check":
        if data.get("ok"):
            return [f"deck check: {data.get('counted')} of {data.get('expected')} cards"]
        wrong = [f"{what} {' '.join(data[what])}" for what in ("missing", "extra") if data.get(what)]
        if data.get("unreadable"):
            wrong.append(f"{data['unreadable']} unreadable")
        return [f"DECK CHECK FAILED: {data.get('counted')} of {data.get('expected')} cards counted"
                + (f" ({'; '.join(wrong)})" if wrong else "")]
    if kind == "shuffle":
        if data.get("ok"):
            return [f"shuffled: {data.get('count')} cards"]
        return [f"SHUFFLE COUNT WRONG: {data.get('count')} cards, {data.get('expected')} expected"]
    if kind == "shoe":
        last = ": the next round is the last of the shoe" if data.get("last_round") else ""
        if data.get("event") == "cut_card":
            return [f"the cut card is out, {data.get('remaining')} cards left{last}"]
        return [f"the shoe is empty{last}"]
    if kind == "void":
        burned = f"; {data['cards_burned']} card(s) burned with it" if data.get("cards_burned") else ""
        return [f"round {data.get('round')} VOIDED by {data.get('by')}: {data.get('reason')}{burned}"]
    if kind == "player_dealer":
        seat, change = data.get("seat"), data.get("change")
        if seat is None:
            return ["no player-dealer: nobody holds the position"]
        said = {"offered": f"player-dealer position offered to seat {seat}",
                "accepted": f"seat {seat} takes the player-dealer position",
                "passed": f"seat {seat} passes the player-dealer position",
                "restored": f"player-dealer seat {seat} as before the restart "
                            f"({data.get('consecutive')} round(s) running)"}.get(str(change))
        return [said] if said else []   # kept: the round's first line names the holder
    return None


def _fmt(data: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in data.items() if v not in (None, [], ""))
