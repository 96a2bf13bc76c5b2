"""Acknowledgements: a supervisor owns an alarm (issue 22).

A supervisor acknowledges an alarm on the board, optionally with a note and an assignee. The board
publishes the acknowledgement on ``<prefix>/_pit/ack`` (QoS 1); every pit service of the site
hears it: the archiving ones store it (``acknowledgements``, keyed by its own id, so a redelivery
or a second service stores it once), and every board puts it on the alarm, live. Who may publish
there is the broker's ACL (config/acl: the pit services' users only); what arrives is checked
here like anything from the broker: a message that is not an acknowledgement is refused and
counted, and its text is never markup on a page.

An acknowledgement never closes an alarm: the table's going on does (controller.pit.board.picture).
It says that someone knows, who, since when, and what they said.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.shared.schemas import TABLE_ID

TOPIC = "_pit/ack"
"""Under the site's prefix: ``casino/_pit/ack``."""

NAME = re.compile(r"^[a-z][a-z0-9_.-]{0,31}$")
ID = re.compile(r"^[0-9a-f]{32}$")
CODE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
NOTE = 500
"""Characters a note may have."""


@dataclass(frozen=True)
class Ack:
    id: str
    table: str
    alarm_seq: int
    code: str
    by: str
    ts: float
    note: str | None = None
    assignee: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "table": self.table, "alarm_seq": self.alarm_seq, "code": self.code, "by": self.by,
                "ts": self.ts, "note": self.note, "assignee": self.assignee}


class AckError(ValueError):
    """Not an acknowledgement; the message names the field and what it must be, never its value."""


def make(table: str, alarm_seq: int, code: str, by: str, *, note: str | None = None,
         assignee: str | None = None, now: float | None = None) -> Ack:
    """A new acknowledgement from the board (checked as one that arrives is)."""
    return parse({"id": uuid.uuid4().hex, "table": table, "alarm_seq": alarm_seq, "code": code, "by": by,
                  "ts": time.time() if now is None else now, "note": note or None, "assignee": assignee or None})


def parse(payload: Mapping[str, Any]) -> Ack:
    """An acknowledgement as it arrives on the broker; :class:`AckError` for anything else."""
    if not isinstance(payload, Mapping):
        raise AckError("an acknowledgement is a JSON object")
    extra = set(payload) - {"id", "table", "alarm_seq", "code", "by", "ts", "note", "assignee"}
    if extra:
        raise AckError(f"{len(extra)} unknown key(s): the keys are id, table, alarm_seq, code, by, ts, note, assignee")

    def text(key: str, pattern: re.Pattern[str], what: str) -> str:
        value = payload.get(key)
        if not isinstance(value, str) or not pattern.fullmatch(value):
            raise AckError(f"{key}: must be {what}")
        return value
    seq = payload.get("alarm_seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq < 2**63:
        raise AckError("alarm_seq: must be the acknowledged alarm's seq, a positive integer")
    ts = payload.get("ts")
    if not isinstance(ts, int | float) or isinstance(ts, bool) or not 0 < ts < 1e11:
        raise AckError("ts: must be a time in seconds since the epoch")
    note = payload.get("note")
    if note is not None and (not isinstance(note, str) or len(note) > NOTE or "\0" in note):
        raise AckError(f"note: must be text of at most {NOTE} characters")
    assignee = payload.get("assignee")
    if assignee is not None and (not isinstance(assignee, str) or not NAME.fullmatch(assignee)):
        raise AckError("assignee: must be a pit user's name")
    return Ack(text("id", ID, "32 hex digits"), text("table", TABLE_ID, "a table id"), seq,
               text("code", CODE, "an alarm code"), text("by", NAME, "a pit user's name"), float(ts), note, assignee)
