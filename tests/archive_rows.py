"""A pit archive filled by hand, for tests that read it back (`tablectl report`).

The schema is the archive's own migration file, applied as it is; the rows go in with plain
INSERTs, so what a test reads back is exactly what it wrote. Every event is checked against its
schemas (its table's game's) before it goes in: the pit service stores only valid events, and a
fixture that a real table could not have published would prove nothing. A table whose game this
pit does not know is checked as the pit service checks it: against the generic schemas only.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import psycopg

import controller.pit
from controller.shared.schemas import validate_event
from games import registry

SCHEMA = Path(controller.pit.__file__).parent / "migrations" / "0001_archive.sql"


class ArchiveRows:
    """``rows = ArchiveRows(pg_url)``: the archive's schema in that (empty) database, and a way to
    add tables, events and gaps to it."""

    def __init__(self, url: str) -> None:
        self.conn = psycopg.connect(url, autocommit=True)
        self.conn.execute(SCHEMA.read_text())
        self.games: dict[str, str] = {}
        self.next_seq: dict[str, int] = {}

    def table(self, table: str, game: str) -> None:
        self.games[table] = game
        self.conn.execute("INSERT INTO tables (table_id, game, status) VALUES (%s, %s, %s)",
                          [table, game, json.dumps({"online": True, "table": table, "birth": 1, "game": game})])

    def event(self, table: str, at: str, kind: str, data: dict, round_: int | None = None,
              seq: int | None = None) -> dict:
        """Store one event at ``at`` (ISO 8601 with an offset); its seq is the table's next unless
        given (a gap is made by giving one past it)."""
        seq = seq if seq is not None else self.next_seq.get(table, 1)
        self.next_seq[table] = seq + 1
        ts = datetime.fromisoformat(at)
        env = {"seq": seq, "ts": ts.timestamp(), "table": table, "round": round_, "kind": kind, "data": data}
        game = self.games[table]
        validate_event(env, game=game if game in registry.names() else None)
        self.conn.execute("INSERT INTO events (table_id, seq, kind, round, ts, data, envelope) "
                          "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                          [table, seq, kind, round_, ts, json.dumps(data), json.dumps(env)])
        return env

    def redeliver(self, env: dict) -> int:
        """Store an event again as the pit service stores every delivery (a QoS 1 duplicate, a
        replay): ``ON CONFLICT DO NOTHING`` on (table, seq). Returns the rows added: 0."""
        ts = datetime.fromtimestamp(env["ts"]).astimezone()
        return self.conn.execute("INSERT INTO events (table_id, seq, kind, round, ts, data, envelope) "
                                 "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (table_id, seq) DO NOTHING",
                                 [env["table"], env["seq"], env["kind"], env["round"], ts, json.dumps(env["data"]),
                                  json.dumps(env)]).rowcount

    def gap(self, table: str, first: int, last: int, status: str, reason: str | None = None, asked: int = 0,
            opened: str = "2024-03-01T00:00:00+00:00", closed: str | None = None) -> None:
        self.conn.execute("INSERT INTO gaps (table_id, first_seq, last_seq, status, reason, asked, opened_at, "
                          "closed_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                          [table, first, last, status, reason, asked, datetime.fromisoformat(opened),
                           datetime.fromisoformat(closed) if closed else None])

    def close(self) -> None:
        self.conn.close()
