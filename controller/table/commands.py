"""Pit commands: from raw MQTT payload to a checked request, or a reason why not.

The broker's ACL decides who may send a command; the controller still
checks every payload (DESIGN.md, MQTT) against ``docs/schemas/command.json``
and answers anything it cannot run with an error naming the problem. The
request's ``id`` is recovered whenever the payload is a JSON object, so
even a refusal reaches the sender's reply handler.

A refusal names the key and what was expected and quotes nothing it got (not a string, not a
number, not an unknown key or command name): it is published on the reply topic and in the
``command`` event, journaled and archived, and what was refused may be a card still face down
typed in the wrong place (controller.shared.schemas, ``quote=False``). The request's ``id`` is the one
thing of the payload a reply carries back, by design: it is how the sender finds its reply.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator

from controller.shared.schemas import problems, validator
from controller.table.inbox import Command

COMMANDS: tuple[str, ...] = ("open", "close", "void", "resume", "rebirth", "replay", "button", "dice_reset",
                           "integrity_reset")
PAYLOAD_LIMIT = 4096
"""Bytes: a command is a small JSON object; anything bigger is refused unread."""


_JSON_TYPES: dict[type, str] = {list: "a list", str: "a string", int: "a number", float: "a number",
                                 bool: "true or false", type(None): "null"}


class CommandError(ValueError):
    """A command that cannot be run; ``request_id`` is echoed in the reply."""

    def __init__(self, message: str, request_id: Any = None) -> None:
        self.request_id = request_id
        super().__init__(message)


@dataclass(frozen=True)
class Request:
    name: str
    id: str | int | None
    args: dict[str, Any] = field(default_factory=dict)


def _no_constant(name: str) -> Any:
    """NaN and Infinity are not JSON (RFC 8259), though Python's decoder takes them: refused, so
    that no command puts a value in an event that a pit's JSON parser cannot read."""
    raise ValueError(f"{name} is not a JSON number")


def parse(command: Command, *, remote_buttons: bool, game: Mapping[str, Mapping[str, Any]] | None = None) -> Request:
    """Check a command; raise :class:`CommandError` naming the problem. ``game``: the commands the
    table's game adds (games.registry ``commands``), each name with the JSON Schema of its payload."""
    if command.retained:
        raise CommandError("retained commands are refused: a retained command would run again on every "
                           "reconnect; publish it without the retain flag")
    if len(command.payload) > PAYLOAD_LIMIT:
        raise CommandError(f"payload too large: {len(command.payload)} bytes, at most {PAYLOAD_LIMIT}")
    try:
        text = command.payload.decode("utf-8")
        payload = json.loads(text, parse_constant=_no_constant) if text.strip() else {}
        # A \ud800 escape is valid JSON and a lone surrogate in Python: text no UTF-8 encoder (the
        # journal's, paho's) can write. Found by a flood of random commands; it stopped the table.
        json.dumps(payload, ensure_ascii=False).encode("utf-8")
    except UnicodeDecodeError as exc:
        raise CommandError(f"malformed payload: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except UnicodeEncodeError as exc:
        raise CommandError(f"malformed JSON: a \\u escape of a lone surrogate (U+{ord(exc.object[exc.start]):04X}) "
                           "is not a character") from None
    except ValueError as exc:  # json.JSONDecodeError: says where, never echoes the payload
        raise CommandError(f"malformed JSON: {exc}") from None
    except RecursionError:  # 2,000 brackets fit in the payload limit and exhaust the parser's stack
        raise CommandError("malformed JSON: nested too deeply") from None
    if not isinstance(payload, dict):   # named by its JSON type only: a refusal quotes nothing it got
        raise CommandError(f"the payload must be a JSON object such as {{\"id\": \"r1\"}}, not "
                           f"{_JSON_TYPES.get(type(payload), 'another value')}")
    rid = payload.get("id")
    if not (isinstance(rid, str) and len(rid) <= 128) and not (isinstance(rid, int) and not isinstance(rid, bool)):
        rid = None
    extra = dict(game or {})
    if command.name in extra:
        found = problems(Draft202012Validator(extra[command.name]), payload, quote=False)
        if found:
            raise CommandError(f"bad {command.name} command: " + "; ".join(found), rid)
        return Request(command.name, rid, {k: v for k, v in payload.items() if k != "id"})
    if command.name not in COMMANDS:
        known = ", ".join((*COMMANDS, *extra))
        raise CommandError(f"unknown command: the commands are {known}", rid)
    if command.name == "button" and not remote_buttons:
        raise CommandError("remote buttons are off on this table ([dealer] remote_buttons = false)", rid)
    found = problems(validator(f"command#/$defs/{command.name}"), payload, quote=False)
    if found:
        raise CommandError(f"bad {command.name} command: " + "; ".join(found), rid)
    return Request(command.name, rid, {k: v for k, v in payload.items() if k != "id"})
