"""A bounded flood of random commands through a real Mosquitto that sets ``max_packet_size`` (as
config/mosquitto.conf does): afterwards the table is up and a pit subscriber has every seq.

Issue 13: a long command topic stopped the table; a command name echoed into an event bigger
than the broker accepts cut the table off from the pit for good; deeply nested JSON raised
RecursionError. Here 10,000 commands of random shape, size and nesting (names valid, unknown,
overlong and non-ASCII; payloads valid, wrong-typed, deeply nested, binary, empty, tens of
kilobytes) go to a dealing table, seeded so that a failure repeats.
"""

from __future__ import annotations

import json
import random
import threading

import paho.mqtt.client as mqtt
import pytest
from mqtt_support import Subscriber, running_broker
from paho.mqtt.enums import CallbackAPIVersion
from sim_table import SimTable

COMMANDS = 10_000
KNOWN = ("open", "close", "void", "resume", "rebirth", "replay", "button", "change_deck", "deal")
BUTTONS = ("deal", "pass", "void", "shuffle_ack", "play", "fold", "change", "stand", "spin", "")


def _name(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.4:
        return rng.choice(KNOWN)
    if pick < 0.7:
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz_0123456789") for _ in range(rng.randint(1, 40)))
    if pick < 0.85:
        return "x" * rng.randint(33, 40_000)                         # a name no reply topic may echo
    # Non-ASCII, but no wildcard, level separator or control character: a broker refuses a topic
    # name with those and drops the client that sent it (MQTT 3.1.1, 1.5.3), before the table sees it.
    text = "".join(chr(rng.choice([rng.randint(0x21, 0x7E), rng.randint(0xA0, 0x2FF)])) for _ in range(rng.randint(1, 50)))
    return text.replace("+", "p").replace("#", "h").replace("/", "s")


def _value(rng: random.Random, depth: int = 0) -> object:
    pick = rng.random()
    if depth > 3 or pick < 0.3:
        return rng.choice([None, True, 0, -1, 2**70, 1.5, "", "x" * rng.randint(0, 300), "\u00e9\u2603", [], {}])
    if pick < 0.6:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(["id", "from", "to", "button", "seat", "reason", "by", "k"]): _value(rng, depth + 1)
            for _ in range(rng.randint(0, 5))}


def _payload(rng: random.Random, n: int) -> bytes:
    pick = rng.random()
    if pick < 0.35:   # a well-formed command, often with the wrong values
        body = {"id": rng.choice([f"f{n}", n, None, "x" * 100, [n]]), "button": rng.choice(BUTTONS),
                "seat": rng.choice([1, 3, 0, 99, "1", None]), "from": rng.randint(-5, 3000),
                "to": rng.randint(-5, 3000), "reason": "flood", "by": rng.choice(["pit", "dealer", "nobody"])}
        return json.dumps({k: v for k, v in body.items() if rng.random() < 0.7}).encode()
    if pick < 0.55:
        return json.dumps(_value(rng)).encode()
    if pick < 0.65:   # nested far deeper than anyone needs, under the 4 KB command limit or well over it
        depth = rng.choice([50, 2_000, 20_000])
        opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
        return (opener * depth + "1" + closer * depth).encode()
    if pick < 0.75:
        return rng.randbytes(rng.randint(0, 2_000))
    if pick < 0.8:
        return b""
    if pick < 0.85:
        return json.dumps({"id": f"big{n}", "reason": "r" * rng.randint(5_000, 60_000)}).encode()[:64_000]
    if pick < 0.9:
        return b'{"id": "nan", "from": NaN, "to": Infinity}'
    return json.dumps({"id": f"u{n}", "reason": "\ud800" if rng.random() < 0.5 else "\u0000"}).encode(
        "utf-8", "surrogatepass")


@pytest.mark.slow
def test_ten_thousand_random_commands_leave_the_table_up_and_every_seq_with_the_pit(tmp_path):
    with running_broker("tablectl-test-flood-", lambda port, _tmp: (
            f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\n"
            "max_packet_size 65536\nmax_queued_messages 1000000\nmax_inflight_messages 100\n")) as broker:
        table = SimTable(broker, tmp_path, seed=13)
        pit = Subscriber(broker.host, broker.port, f"{table.base}/#")  # from seq 1; a queue: no rescans
        table.start()
        try:
            table.wait_event("result")
            flood = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="flood")
            connected = threading.Event()
            flood.on_connect = lambda *a: connected.set()
            flood.connect(broker.host, broker.port)
            flood.loop_start()
            assert connected.wait(10)
            rng = random.Random(13)
            sent = 0
            for n in range(COMMANDS):
                topic = f"{table.base}/cmd/{_name(rng)}"
                payload = _payload(rng, n)
                if len(topic.encode()) + len(payload) > 65_000:  # the broker would drop the flooder, not the table
                    payload = payload[: 65_000 - len(topic.encode())]
                info = flood.publish(topic, payload, qos=1)
                if n % 100 == 99:  # a window of 100 in flight: as fast as the broker takes them
                    info.wait_for_publish(30)
                sent += info.rc == mqtt.MQTT_ERR_SUCCESS
            info.wait_for_publish(30)
            flood.disconnect()
            flood.loop_stop()
            assert sent == COMMANDS

            health = table.controller.table.health()
            assert health.running and table.controller.table.error is None, table.controller.table.error
            # The table still answers, and everything it journaled reaches the pit.
            table.pit.publish(f"{table.base}/cmd/rebirth", {"id": "after-the-flood"})
            seqs: set[int] = set()
            replies = 0

            def take(m) -> bool:
                nonlocal replies
                if "/event/" in m.topic:
                    seqs.add(m.json()["seq"])
                elif m.topic.endswith("/reply"):
                    replies += 1
                return m.topic.endswith("/cmd/rebirth/reply") and m.json().get("id") == "after-the-flood"

            reply = pit.wait_for(take, timeout=300).json()
            assert reply["ok"] is True, reply
            top = table.controller.table.journal.next_seq - 1
            while max(seqs) < top:
                take(pit.get(timeout=60))
            missing = sorted(set(range(1, top + 1)) - seqs)
            assert not missing, f"{len(missing)} seqs never reached the pit, first {missing[:10]}"
            commands = sum(1 for m in pit.seen if m.topic.endswith("/event/command"))
            assert commands >= COMMANDS, f"only {commands} command events for {COMMANDS} commands"
            assert replies >= COMMANDS // 2   # those with a name of its own reply topic, or cmd/invalid
            assert table.controller.table.health().running
        finally:
            pit.close()
            table.stop()
