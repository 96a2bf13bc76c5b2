"""The simulated dealer's buttons when the controller runs in another process: ``cmd/button``.

A press sent while the table's MQTT session is down -- a line dropout, or another client that
took the table's client id for a moment -- reaches nobody (the table's session is clean), and a
dealer who pressed ``deal`` and sees nothing happen presses again. So does this: the last press
is pressed again, with the same ``id``, each time the table says it is online again, until a
newer prompt shows that the table moved on. The controller answers a repeated ``id`` without
carrying it out twice (controller.table.answered), so a press that did arrive is not doubled. Nothing
waits on a timer: the table's own birth is the signal.
"""

from __future__ import annotations

import itertools
import threading
import uuid
from collections.abc import Callable
from typing import Any


class RemoteButtons:
    """Presses through ``publish(topic, payload)``; feed it the table's ``status`` and
    ``event/prompt`` messages (:meth:`on_message`, any thread) before the dealer sees them."""

    def __init__(self, base: str, publish: Callable[[str, dict[str, Any]], None]) -> None:
        self.base = base
        self._publish = publish
        self._run = uuid.uuid4().hex[:8]   # ids unique to this run: a restarted simulator is not a repeat
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._newest_prompt = -1
        self._pending: tuple[int, dict[str, Any]] | None = None   # (newest prompt seq at the press, payload)
        self.pressed_again = 0

    def press(self, button: str, seat: int | None = None) -> None:
        payload = {"id": f"sim-{self._run}-{next(self._ids)}", "button": button}
        if seat is not None:
            payload["seat"] = seat
        with self._lock:
            self._pending = (self._newest_prompt, payload)
        self._publish(f"{self.base}/cmd/button", payload)

    def on_message(self, topic: str, message: dict[str, Any]) -> None:
        again = None
        with self._lock:
            if topic == f"{self.base}/event/prompt":
                seq = message.get("seq")
                if isinstance(seq, int) and seq > self._newest_prompt:
                    self._newest_prompt = seq
                    if self._pending is not None and seq > self._pending[0]:
                        self._pending = None   # the table moved on: the press arrived
            elif topic == f"{self.base}/status" and message.get("online") is True and self._pending is not None:
                again = self._pending[1]
                self.pressed_again += 1
        if again is not None:
            self._publish(f"{self.base}/cmd/button", again)
