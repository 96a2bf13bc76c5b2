"""A table's rounds read back from the archive, for disputes (issue 22): any round of any date,
found by its number or by a time, with every event it had, in order, and what is missing.

The board's picture keeps a table's last rounds only (:data:`~controller.pit.board.picture.HISTORY`);
a dispute is often about a round of last week. Everything here is read from the archive in
one read-only transaction, so a round and the gaps beside it agree even while the pit service
writes. Nothing is inferred that the table did not publish: a round is the events whose envelope
names it, its outcome is its ``result`` or its ``void``, and a round number the table skipped, or
seqs the archive lacks within a round, are shown as gaps, never passed over.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from games import registry

PAGE = 50
"""Rounds a page of a table's history holds."""


@dataclass
class Round:
    """One round of one table as the archive holds it."""

    table: str
    round: int
    game: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    """Every envelope of the round, in seq order, as the table published it."""
    missing: list[tuple[int, int]] = field(default_factory=list)
    """Runs of seqs within the round's span that the archive does not hold."""
    gaps: list[dict[str, Any]] = field(default_factory=list)
    """The archive's gap records over those seqs (open, unfillable: with the table's reason)."""

    @property
    def first_ts(self) -> float | None:
        return self.events[0]["ts"] if self.events else None

    @property
    def last_ts(self) -> float | None:
        return self.events[-1]["ts"] if self.events else None

    def outcome(self) -> dict[str, Any]:
        """``result`` (with the game's one-line summary), ``void`` (reason and who), or ``open``."""
        for env in reversed(self.events):
            if env["kind"] == "void":
                data = env["data"]
                return {"outcome": "void", "reason": data.get("reason"), "by": data.get("by"), "seq": env["seq"]}
            if env["kind"] == "result":
                return {"outcome": "result", "summary": summary(self.game, env["data"]), "seq": env["seq"]}
        return {"outcome": "open"}

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "round": self.round, "game": self.game, "first_ts": self.first_ts,
                "last_ts": self.last_ts, **self.outcome(), "events": self.events,
                "missing": [{"first_seq": a, "last_seq": b} for a, b in self.missing], "gaps": self.gaps}


def summary(game: str | None, data: Mapping[str, Any]) -> str:
    """A result in the game's own words (its registry ``summary``), else its data."""
    try:
        entry = registry.get(game) if game else None
    except KeyError:
        entry = None
    if entry is not None and entry.summary is not None:
        try:
            return entry.summary(data)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            pass
    return json.dumps(data, separators=(",", ":"), sort_keys=True)[:300]


def _game(conn: Any, table: str) -> str | None:
    row = conn.execute("SELECT game FROM tables WHERE table_id = %s", [table]).fetchone()
    return row[0] if row else None


def find_round(conn: Any, table: str, number: int) -> Round | None:
    """Round ``number`` of ``table``, or None when the archive holds no event of it."""
    rows = conn.execute("SELECT envelope FROM events WHERE table_id = %s AND round = %s ORDER BY seq",
                        [table, number]).fetchall()
    if not rows:
        return None
    found = Round(table, number, _game(conn, table), [_env(r[0]) for r in rows])
    first, last = found.events[0]["seq"], found.events[-1]["seq"]
    held = conn.execute("SELECT seq FROM events WHERE table_id = %s AND seq BETWEEN %s AND %s ORDER BY seq",
                        [table, first, last]).fetchall()
    found.missing = _holes([r[0] for r in held], first, last)
    found.gaps = _gaps(conn, table, first, last)
    return found


def round_at(conn: Any, table: str, when: datetime) -> int | None:
    """The round ``table`` was dealing at ``when``: the last round that had begun by then (its
    first event at or before it). None before the table's first round."""
    row = conn.execute(
        "SELECT round FROM events WHERE table_id = %s AND round IS NOT NULL AND ts <= %s "
        "ORDER BY ts DESC, seq DESC LIMIT 1", [table, when]).fetchone()
    return row[0] if row else None


def history(conn: Any, table: str, *, before: int | None = None, limit: int = PAGE) -> dict[str, Any]:
    """A page of ``table``'s rounds, newest first, before round ``before`` (the newest when None):
    each with when it began, its outcome and its alarms; a round number the table skipped is an
    entry ``{"missing": [first, last]}`` in its place, and the archive's gaps over the page's seqs
    are listed. ``older`` is the round to ask for next, or None at the first."""
    game = _game(conn, table)
    top = before if before is not None else (conn.execute(
        "SELECT max(round) FROM events WHERE table_id = %s", [table]).fetchone()[0] or 0) + 1
    rows = conn.execute(
        "SELECT round, min(ts), min(seq), max(seq), "
        "  (array_agg(data ORDER BY seq DESC) FILTER (WHERE kind = 'result'))[1], "
        "  (array_agg(data ORDER BY seq DESC) FILTER (WHERE kind = 'void'))[1], "
        "  array_agg(data->>'code' ORDER BY seq) FILTER (WHERE kind = 'alarm') "
        "FROM events WHERE table_id = %s AND round IS NOT NULL AND round < %s "
        "GROUP BY round ORDER BY round DESC LIMIT %s", [table, top, limit + 1]).fetchall()
    more = len(rows) > limit
    rows = rows[:limit]
    entries: list[dict[str, Any]] = []
    expected = top - 1
    for number, started, first_seq, last_seq, result, void, alarms in rows:
        if number < expected and (before is not None or entries):
            entries.append({"missing": [number + 1, expected]})
        entry: dict[str, Any] = {"round": number, "started": started.timestamp(), "first_seq": first_seq,
                                 "last_seq": last_seq, "alarms": alarms or []}
        if void is not None:
            entry["void"] = {"reason": void.get("reason"), "by": void.get("by")}
        elif result is not None:
            entry["summary"] = summary(game, result)
        entries.append(entry)
        expected = number - 1
    seqs = [(e["first_seq"], e["last_seq"]) for e in entries if "round" in e]
    gaps = _gaps(conn, table, min(a for a, _ in seqs), max(b for _, b in seqs)) if seqs else []
    return {"table": table, "game": game, "rounds": entries, "gaps": gaps,
            "older": entries[-1]["round"] if more and entries and "round" in entries[-1] else None}


def _holes(held: Sequence[int], first: int, last: int) -> list[tuple[int, int]]:
    holes, expect = [], first
    for seq in held:
        if seq > expect:
            holes.append((expect, seq - 1))
        expect = seq + 1
    if expect <= last:
        holes.append((expect, last))
    return holes


def _gaps(conn: Any, table: str, first: int, last: int) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT first_seq, last_seq, status, reason FROM gaps WHERE table_id = %s AND status <> 'filled' "
        "AND first_seq <= %s AND last_seq >= %s ORDER BY first_seq", [table, last, first]).fetchall()
    return [{"first_seq": a, "last_seq": b, "status": s, "reason": r} for a, b, s, r in rows]


def _env(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else json.loads(value)


def printable(found: Round, *, exported_by: str | None = None, now: datetime | None = None,
              stylesheet: str | None = None) -> str:
    """One round as a page to print or file with a dispute: every event in order, each value as
    text (escaped: a table's texts are data, never markup), and what is missing. ``stylesheet``:
    the page links it instead of carrying its own style (the board's pages allow no inline style)."""
    now = now or datetime.now(UTC)
    out = found.outcome()
    e = html.escape

    def when(ts: float | None) -> str:
        return "" if ts is None else datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] + " UTC"

    rows = "".join(
        f"<tr><td>{env['seq']}</td><td>{e(when(env.get('ts')))}</td><td>{e(str(env.get('kind')))}</td>"
        f"<td><code>{e(json.dumps(env.get('data'), ensure_ascii=False, sort_keys=True))}</code></td></tr>"
        for env in found.events)
    missing = "".join(f"<li>seqs {a}&ndash;{b} are not in the archive</li>" for a, b in found.missing)
    missing += "".join(f"<li>gap {g['first_seq']}&ndash;{g['last_seq']}: {e(g['status'])}"
                       f"{': ' + e(g['reason']) if g.get('reason') else ''}</li>" for g in found.gaps)
    verdict = (f"Result: {e(out.get('summary', ''))}" if out["outcome"] == "result" else
               f"Voided by {e(str(out.get('by')))}: {e(str(out.get('reason')))}" if out["outcome"] == "void" else
               "No result and no void in the archive")
    return (
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{e(found.table)} round {found.round}</title>"
        + (f'<link rel="stylesheet" href="{e(stylesheet)}">' if stylesheet else
           "<style>body{font:12pt sans-serif}table{border-collapse:collapse;width:100%}"
           "td,th{border:1px solid #888;padding:2px 4px;vertical-align:top;text-align:left}code{white-space:pre-wrap}"
           "</style>")
        + "</head><body>"
        f"<h1>Table {e(found.table)} ({e(str(found.game))}), round {found.round}</h1>"
        f"<p>{verdict}</p><p>From {e(when(found.first_ts))} to {e(when(found.last_ts))}; "
        f"{len(found.events)} events, seqs {found.events[0]['seq']}&ndash;{found.events[-1]['seq']}.</p>"
        + (f"<p><strong>Missing:</strong></p><ul>{missing}</ul>" if missing else "<p>Nothing is missing.</p>")
        + f"<table><thead><tr><th>seq</th><th>time</th><th>event</th><th>data</th></tr></thead><tbody>{rows}"
        f"</tbody></table><p>Exported from the pit archive {e(when(now.timestamp()))}"
        + (f" by {e(exported_by)}" if exported_by else "") + ".</p></body></html>")
