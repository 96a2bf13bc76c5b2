"""What a pit subscriber sees, as lines of text: for `tablectl watch` and the demo.

It de-duplicates by ``seq`` (QoS 1 is at least once) and counts gaps, so
the person watching knows whether they missed anything. A face-down card
prints as ``??`` because that is all a subscriber is ever told.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SeqTracker:
    """De-duplication and gap detection per table, by ``seq``."""

    last: dict[str, int] = field(default_factory=dict)
    duplicates: int = 0
    gaps: int = 0

    def accept(self, table: str, seq: int) -> bool:
        prev = self.last.get(table)
        if prev is not None and seq <= prev:
            self.duplicates += 1
            return False
        if prev is not None and seq != prev + 1:
            self.gaps += seq - prev - 1
        self.last[table] = seq
        return True


@dataclass
class _Round:
    player: list[str] = field(default_factory=list)
    banker: list[str] = field(default_factory=list)


class PitView:
    """Turns events into the lines a pit supervisor wants to read."""

    def __init__(self, verbose: bool = False) -> None:
        self.verbose = verbose
        self.seqs = SeqTracker()
        self.rounds: dict[str, _Round] = {}
        self.results = 0

    def feed(self, env: dict) -> list[str]:
        table = str(env.get("table", "?"))
        if not self.seqs.accept(table, int(env.get("seq", -1))):
            return []
        kind, data = env.get("kind"), env.get("data", {})
        rnd = self.rounds.setdefault(table, _Round())
        tag = f"[{table} #{env.get('seq')}]"
        if kind == "round_start":
            self.rounds[table] = _Round()
            last = " (last of the shoe)" if data.get("last_of_shoe") else ""
            return [f"{tag} round {data.get('round')}: player-dealer seat {data.get('player_dealer')}{last}"]
        if kind == "card":
            hand = rnd.player if data.get("hand") == "player" else rnd.banker
            hand.append(data.get("card") or "??")
            return [f"{tag}   {data.get('hand')} <- {data.get('card') or 'face down'}"] if self.verbose else []
        if kind == "reveal":
            hand = rnd.player if data.get("hand") == "player" else rnd.banker
            pos = int(data.get("position", 0)) - 1
            if 0 <= pos < len(hand):
                hand[pos] = data.get("card", "??")
            return [f"{tag}   {data.get('hand')} card {data.get('position')} turned up: {data.get('card')}"] \
                if self.verbose else []
        if kind == "result":
            self.results += 1
            p, b = data.get("player", {}), data.get("banker", {})
            six = " (banker wins with 6: pays 1:2)" if data.get("banker_six") else ""
            return [f"{tag}   P {' '.join(p.get('cards', []))} = {p.get('total')}  |  "
                    f"B {' '.join(b.get('cards', []))} = {b.get('total')}  ->  {str(data.get('winner')).upper()}{six}"]
        if kind == "action_button":
            return [f"{tag}   action button: {data.get('card')} counts {data.get('count')} -> seat {data.get('seat')}"]
        if kind == "alarm":
            extra = f" [{data['action']}]" if data.get("action") else ""
            return [f"{tag} ALARM {data.get('severity', '')} {data.get('code')}: {data.get('message')}{extra}"]
        if kind in ("void", "deck_check", "shuffle", "shoe", "player_dealer", "device", "line_errors", "table",
                    "resume", "command"):
            return [f"{tag} {kind}: {_fmt(data)}"]
        if self.verbose and kind in ("prompt", "transition", "lights", "button"):
            return [f"{tag} {kind}: {_fmt(data)}"]
        return []


    @staticmethod
    def status_line(topic: str, status: dict) -> str:
        """The retained birth/death message: is the table up, and which birth is it."""
        table = topic.rsplit("/", 2)[-2] if topic.count("/") >= 2 else topic
        if status.get("online"):
            return (f"[{table}] ONLINE birth {status.get('birth')}: {status.get('game')} "
                    f"{status.get('version', '')}, next seq {status.get('next_seq')}, "
                    f"devices {_fmt(status.get('devices') or {})}")
        return f"[{table}] OFFLINE (birth {status.get('birth')})"


def _fmt(data: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in data.items() if v not in (None, [], ""))
