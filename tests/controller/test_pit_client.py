"""The pit subscriber never lets a payload or a callback end paho's network thread: a
subscriber that dies there stays up and deaf (issue 13, defect 11)."""

from __future__ import annotations

import queue
from collections.abc import Callable

import pytest
from mqtt_support import WAIT, RunningBroker, Subscriber

from controller.pit.client import MAX_PAYLOAD, PitClient, parse_payload


def test_a_callback_that_raises_is_counted_and_the_next_message_still_arrives(
        broker: RunningBroker, subscriber: Callable[..., Subscriber]) -> None:
    got: queue.Queue[dict] = queue.Queue()
    bad: queue.Queue[tuple[str, str]] = queue.Queue()

    def on_event(topic: str, payload: dict) -> None:
        if "boom" in payload:
            raise RuntimeError("a bug in the subscriber's own code")
        got.put(payload)

    def on_bad(topic: str, payload: bytes, why: str) -> None:
        bad.put((topic, why))
        if payload == b"[]":
            raise ValueError("a bug in the bad-message handler too")

    pit = PitClient(broker.host, broker.port, ["t/#"], on_event, on_bad=on_bad).start()
    try:
        table = subscriber("nothing/here")
        table.publish("t/a", {"boom": 1})
        table.publish("t/a", b"[]")
        table.publish("t/a", b"[" * 50_000 + b"]" * 50_000)
        table.publish("t/a", {"n": 2})
        assert got.get(timeout=WAIT) == {"n": 2}
        assert pit.callback_errors == 2
        assert bad.get_nowait() == ("t/a", "not a JSON object but a list")
        assert bad.get_nowait() == ("t/a", "not JSON this side can read: nested too deeply")
        assert got.empty() and bad.empty()
    finally:
        pit.stop()


@pytest.mark.parametrize("payload, why", [
    (b"", None),                                   # a retained message cleared
    (b'{"seq": 1}', None),
    (b"x" * (MAX_PAYLOAD + 1), f"payload too large: {MAX_PAYLOAD + 1} bytes, at most {MAX_PAYLOAD}"),
    (b"\xc3(", "not UTF-8 (invalid continuation byte at byte 0)"),
    (b'{"seq": ', "not JSON: Expecting value: line 1 column 9 (char 8)"),
    (b"[" * 10_000, "not JSON this side can read: nested too deeply"),
    (b'"abc"', "not a JSON object but a string"),
    (b"12", "not a JSON object but a number"),
    (b"null", "not a JSON object but null"),
])
def test_parse_payload_says_why_a_payload_is_not_a_json_object(payload: bytes, why: str | None) -> None:
    value, reason = parse_payload(payload)
    assert reason == why
    assert value == ({"seq": 1} if payload == b'{"seq": 1}' else {})
