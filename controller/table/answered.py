"""The answers to the last commands that changed the table, kept so that none is carried out twice.

A command can reach the table twice: MQTT QoS 1 delivers at least once (a PUBLISH whose PUBACK
was lost comes again with DUP set), and a sender that got no answer -- the table's session was
down, or another client held it for a moment -- sends it again. A dealer's ``deal`` pressed
remotely and carried out twice would skip a betting phase. So a request with an ``id`` is an
idempotency key: the same command, ``id`` and arguments within :data:`KEEP_SECONDS` is answered
again with the first answer (``repeated: true``), and the table does nothing.

Only the commands that change the table are kept: ``replay`` and ``rebirth`` only publish again
what the journal holds, and two pit screens may well ask the same range with the same ``id``.
The arguments are part of the key, so an operator who reuses an ``id`` for a different command
is not silently ignored.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from controller.table.commands import Request

KEEP = 256
"""Answers kept: far more than a table receives while a sender waits for one."""
KEEP_SECONDS = 300.0
"""How long an answer is kept: past the longest reconnect a sender waits through
(``mqtt.reconnect_max_delay`` is at most 120 s), short enough that an id reused by hand
minutes later is a new command."""
REPEATABLE = frozenset({"replay", "rebirth"})
"""Commands that are harmless to carry out twice, and so are never answered from here."""


class AnsweredCommands:
    """The last :data:`KEEP` answers by (command, id, arguments). Table thread only."""

    def __init__(self, *, keep: int = KEEP, keep_seconds: float = KEEP_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._keep = keep
        self._keep_seconds = keep_seconds
        self._clock = clock
        self._answers: OrderedDict[tuple[str, str, str], tuple[float, dict[str, Any]]] = OrderedDict()

    @staticmethod
    def _key(request: Request) -> tuple[str, str, str] | None:
        if request.id is None or request.name in REPEATABLE:
            return None
        return request.name, json.dumps(request.id), json.dumps(request.args, sort_keys=True)

    def get(self, request: Request) -> dict[str, Any] | None:
        """The answer this request had if it came before (``ok``, ``data``, ``error``), else None."""
        key = self._key(request)
        if key is None:
            return None
        found = self._answers.get(key)
        if found is None:
            return None
        at, answer = found
        if self._clock() - at > self._keep_seconds:
            del self._answers[key]
            return None
        return answer

    def put(self, request: Request, answer: dict[str, Any]) -> None:
        key = self._key(request)
        if key is None:
            return
        self._answers[key] = (self._clock(), answer)
        self._answers.move_to_end(key)
        while len(self._answers) > self._keep:
            self._answers.popitem(last=False)
