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
    """Turns events into the lines a pit supervisor wants to read. How a result reads is the
    game's (games.registry ``summary``): the view learns each table's game from its birth
    message (:meth:`status_line`), or is told it (``game``, the demo)."""

    def __init__(self, verbose: bool = False, game: str | None = None) -> None:
        self.verbose = verbose
        self.game = game
        self.games: dict[str, str] = {}
        self.seqs = SeqTracker()
        self.results = 0

    def feed(self, env: dict) -> list[str]:
        table = str(env.get("table", "?"))
        if not self.seqs.accept(table, int(env.get("seq", -1))):
            return []
        kind, data = env.get("kind"), env.get("data", {})
        tag = f"[{table} #{env.get('seq')}]"
        if kind == "round_start":
            last = " (last of the shoe)" if data.get("last_of_shoe") else ""
            pd = f": player-dealer seat {data['player_dealer']}" if data.get("player_dealer") else ""
            return [f"{tag} round {data.get('round')}{pd}{last}"]
        if kind == "card":
            where = f"seat {data['seat']}" if data.get("hand") == "seat" else data.get("hand")
            return [f"{tag}   {where} <- {data.get('card') or 'face down'}"] if self.verbose else []
        if kind == "reveal":
            where = f"seat {data['seat']}" if data.get("hand") == "seat" else data.get("hand")
            shown = data.get("card") or " ".join(data.get("cards", []))
            return [f"{tag}   {where} turned up: {shown}"] if self.verbose else []
        if kind == "result":
            self.results += 1
            return [f"{tag}   {self._summary(table, data)}"]
        if kind == "action_button":
            if "card" not in data:   # placed by other means than a card's count (Double-Hand Poker's dice)
                rest = {k: v for k, v in data.items() if k != "seat"}
                return [f"{tag}   action button -> seat {data.get('seat')}: {_fmt(rest)}"]
            return [f"{tag}   action button: {data.get('card')} counts {data.get('count')} -> seat {data.get('seat')}"]
        if kind == "hand_status":   # a ruling on a seat's hand the table was told of (a count, the winner)
            return [f"{tag}   seat {data.get('seat')} {data.get('status')}: {data.get('reason')}"]
        if kind == "alarm":
            extra = f" [{data['action']}]" if data.get("action") else ""
            return [f"{tag} ALARM {data.get('severity', '')} {data.get('code')}: {data.get('message')}{extra}"]
        if kind in ("void", "deck_check", "shuffle", "shoe", "player_dealer", "device", "line_errors", "table",
                    "resume", "command"):
            return [f"{tag} {kind}: {_fmt(data)}"]
        if self.verbose and kind in ("prompt", "transition", "lights", "button"):
            return [f"{tag} {kind}: {_fmt(data)}"]
        return []

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


def _fmt(data: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in data.items() if v not in (None, [], ""))
