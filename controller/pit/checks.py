"""What a message must be before the pit service uses it: the topic it came on, its JSON, its
schema, and (for an event) that PostgreSQL can hold it.

Everything on the broker is untrusted (controller/pit/watch/command.py says why); the pit service runs the
same checks as ``tablectl watch`` (controller.shared.schemas, the table of the topic, ``seq`` a plain
integer) and adds what an archive needs: strict JSON (no NaN), no NUL character (jsonb cannot
hold one), a ``ts`` and a ``round`` that fit their columns. Each refusal is a :class:`Bad` with a
category (the service's counter) and a reason a person can act on.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from controller.pit.archive import ArchivedEvent
from controller.pit.client import parse_payload
from controller.pit.figures import KINDS
from controller.pit.watch.command import SEQ_MAX, TABLE_ID
from controller.shared.schemas import SchemaError, show, validate, validate_event
from games import registry

MALFORMED = "malformed"
"""Not a JSON object (not UTF-8, not JSON, too large, nested too deeply, NaN ...)."""
SCHEMA = "schema"
"""JSON, but not what the schemas (or the topic) say it must be."""
UNKNOWN_TABLE = "unknown_table"
"""An event of a table that never published a status under the prefix."""
IMPLAUSIBLE_SEQ = "implausible_seq"
"""A seq far beyond anything the table has vouched for."""
SEQ_BACKWARDS = "seq_backwards"
"""A seq archived already with another payload."""
NOT_STORABLE = "not_storable"
"""Valid, but not something PostgreSQL can store (a NUL character, a round past 2**31)."""

CATEGORIES = (MALFORMED, SCHEMA, UNKNOWN_TABLE, IMPLAUSIBLE_SEQ, SEQ_BACKWARDS, NOT_STORABLE)

FIGURES = KINDS
"""A table's retained integrity figures (issue 25): ``<prefix>/<table>/dice`` (dice.json, the dice
cup's monitor) and ``<prefix>/<table>/integrity`` (integrity.json: the outcome and shuffle monitors).
Shown on the board, never archived: what they flag is an ``alarm`` event, archived as every event."""

_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")
"""The NUL character as JSON writes it (an escape not itself escaped): jsonb refuses it."""

TS_MAX = 1e11
"""Unix seconds (the year 5138): far past any real clock, well inside PostgreSQL's timestamptz."""
ROUND_MAX = 2**31 - 1
"""The ``round`` column is a PostgreSQL integer."""


class Bad(Exception):
    """A message refused: ``category`` (one of :data:`CATEGORIES`) and why."""

    def __init__(self, category: str, reason: str) -> None:
        super().__init__(reason)
        self.category = category
        self.reason = reason


@dataclass(frozen=True)
class Topic:
    """Where a message came: ``what`` is ``event``, ``status``, ``state``, ``reply``, ``request`` or one
    of :data:`FIGURES`."""

    table: str
    what: str
    kind: str | None = None


def parse_topic(prefix: str, topic: str) -> Topic:
    """``<prefix>/<table>/event/<kind>``, ``.../status``, ``.../state``, ``.../cmd/<name>/reply`` (replay,
    and the board's void and resume: the topic's kind is the command's name) and ``.../cmd/replay``
    (a request: the service hears its own come back)."""
    head = prefix + "/"
    parts = topic[len(head):].split("/") if topic.startswith(head) else []
    if len(parts) < 2:
        raise Bad(SCHEMA, f"not a topic under {prefix}/<table>/")
    table, tail = parts[0], parts[1:]
    if not TABLE_ID.fullmatch(table):
        raise Bad(SCHEMA, "the topic's table level is not a table id (letters, digits, _ and -, at most 64)")
    if tail[0] == "event" and len(tail) == 2:
        return Topic(table, "event", tail[1])
    if tail == ["status"]:
        return Topic(table, "status")
    if tail == ["state"]:
        return Topic(table, "state")
    if len(tail) == 1 and tail[0] in FIGURES:
        return Topic(table, tail[0])
    if len(tail) == 3 and tail[0] == "cmd" and tail[1] in ("replay", "void", "resume") and tail[2] == "reply":
        return Topic(table, "reply", tail[1])
    if tail == ["cmd", "replay"]:
        return Topic(table, "request")
    raise Bad(SCHEMA, "not a topic the pit service subscribes to")


def parse_object(payload: bytes) -> dict[str, Any]:
    """The payload as a JSON object (controller.pit.client's rules), or :class:`Bad`."""
    value, why = parse_payload(payload)
    if why is not None:
        raise Bad(MALFORMED, why)
    return value


def check_event(table: str, kind: str, env: dict[str, Any], game: str | None, payload: bytes = b"") -> ArchivedEvent:
    """An event checked as ``tablectl watch`` checks one (the game's schemas once its status named
    the game), and made ready for the archive."""
    text = strict_json(env)  # first: a NaN is malformed JSON, whatever key it is under
    try:
        validate_event(env, game=game if game in registry.names() else None)
    except SchemaError as exc:
        raise Bad(SCHEMA, problems(exc)) from None
    except RecursionError:
        raise Bad(MALFORMED, "nested too deeply to check") from None
    seq, ts, rnd = env["seq"], env["ts"], env["round"]
    if type(seq) is not int:  # 5.0 and 1e9 are integers to JSON Schema; no controller sends them
        raise Bad(SCHEMA, f"seq: must be an integer written without a fraction or exponent (got {show(seq)})")
    if seq > SEQ_MAX:
        raise Bad(SCHEMA, f"seq: beyond {SEQ_MAX}, the largest a controller can give")
    if env["table"] != table:
        raise Bad(SCHEMA, f"the payload names table {show(env['table'])}; an event on table {table}'s topic must "
                          f"be {table}'s")
    if env["kind"] != kind:
        raise Bad(SCHEMA, f"kind {show(env['kind'])} in the payload, {show(kind)} in the topic")
    if not (isinstance(ts, int | float) and math.isfinite(ts) and 0 <= ts < TS_MAX):
        raise Bad(SCHEMA, f"ts: must be a unix time in seconds, 0 to {TS_MAX:.0e} (got {show(ts)})")
    if rnd is not None and (type(rnd) is not int or rnd > ROUND_MAX):
        raise Bad(NOT_STORABLE if type(rnd) is int else SCHEMA,
                  f"round: must be an integer up to {ROUND_MAX} (got {show(rnd)})")
    return ArchivedEvent(table, seq, kind, rnd, float(ts), text, payload)


def strict_json(value: Any) -> str:
    """``value`` as JSON that PostgreSQL's jsonb takes, or :class:`Bad`: Python's JSON reader lets
    NaN, Infinity and lone surrogates through, and jsonb holds no NUL character."""
    try:
        text = json.dumps(value, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
        text.encode("utf-8")
    except ValueError as exc:
        if isinstance(exc, UnicodeEncodeError):
            raise Bad(MALFORMED, "a string in it is not valid Unicode (a lone surrogate)") from None
        raise Bad(MALFORMED, "not strict JSON: NaN or Infinity is no JSON number") from None
    except RecursionError:
        raise Bad(MALFORMED, "nested too deeply to store") from None
    if _NUL.search(text):
        raise Bad(NOT_STORABLE, "a string in it holds the NUL character (\\u0000), which PostgreSQL cannot store")
    return text


def check_retained(schema: str, table: str, payload: dict[str, Any]) -> dict[str, Any]:
    """A status, a state or a table's integrity figures (:data:`FIGURES`, schema of the same name):
    its schema, the topic's table, a plain integer ``seq``/``next_seq``, strict JSON."""
    try:
        validate(schema, payload)
    except SchemaError as exc:
        raise Bad(SCHEMA, problems(exc)) from None
    except RecursionError:
        raise Bad(MALFORMED, "nested too deeply to check") from None
    if payload["table"] != table:
        raise Bad(SCHEMA, f"the payload names table {show(payload['table'])}, the topic table {table}")
    for key in ("seq", "next_seq", "birth"):
        if key in payload and (type(payload[key]) is not int or payload[key] > SEQ_MAX):
            raise Bad(SCHEMA, f"{key}: must be an integer up to {SEQ_MAX} (got {show(payload[key])})")
    strict_json(payload)  # the status goes into a jsonb column; a NaN in figures would show as a figure
    return payload


def check_reply(payload: dict[str, Any]) -> dict[str, Any]:
    try:
        validate("reply", payload)
    except SchemaError as exc:
        raise Bad(SCHEMA, problems(exc)) from None
    except RecursionError:
        raise Bad(MALFORMED, "nested too deeply to check") from None
    return payload


def problems(exc: SchemaError, most: int = 4) -> str:
    """The first few schema problems, in one line."""
    more = len(exc.problems) - most
    return "; ".join(exc.problems[:most]) + (f"; and {more} more" if more > 0 else "")
