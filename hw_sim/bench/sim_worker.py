"""The benchmark's simulated table: ``python -m hw_sim.bench worker sim --config FILE``.

What `tablectl sim` is for a controller in another process (the same SimRig
on pseudo-terminals, the simulated dealer following the table's prompts and
pressing buttons with ``cmd/button``), plus a clock on the shoe's card
frames. It reads the table config the bench wrote (TOML, with tomllib) and
asks the game registry for the deck, so it needs nothing of the controller;
its pit client is plain paho-mqtt, set up as the controller's own pit client
is (QoS 1, TCP_NODELAY), so the dealer's round trips cost what they did.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import logging
import signal
import socket
import threading
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from drivers.stop_signal import StopSignal

log = logging.getLogger(__name__)


def tcp_no_delay(_client: Any, _userdata: Any, sock: Any) -> None:
    """paho ``on_socket_open``: send each packet at once. Nagle's algorithm held a button press
    back by up to 40 ms (the controller's clients do the same: controller/shared/mqtt_socket.py)."""
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class DealerLink:
    """The simulated dealer's side of MQTT: the table's prompts in (parsed JSON objects, handed
    to ``on_event`` on paho's thread), button presses out (``cmd/button``, QoS 1)."""

    def __init__(self, host: str, port: int, topics: list[str], on_event: Callable[[str, dict], None],
                 client_id: str) -> None:
        self.host, self.port, self.topics, self.on_event = host, port, topics, on_event
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.on_socket_open = tcp_no_delay
        self.client.suppress_exceptions = True
        self.client.enable_logger(log)

    def start(self, timeout: float = 10.0) -> DealerLink:
        self.client.connect(self.host, self.port, keepalive=30)
        self.client.loop_start()
        if not self.subscribed.wait(timeout):
            self.client.loop_stop()
            raise SystemExit(f"bench sim: could not subscribe on {self.host}:{self.port}")
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def publish(self, topic: str, payload: dict) -> None:
        self.client.publish(topic, json.dumps(payload), qos=1)

    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any, reason_code: Any, _props: Any) -> None:
        if reason_code.is_failure:
            log.error("bench sim: the broker refused the connection: %s", reason_code)
            return
        client.subscribe([(t, 1) for t in self.topics])

    def _on_message(self, _client: mqtt.Client, _userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:   # never raise on paho's thread: it would end, and the dealer would stop hearing prompts
            env = json.loads(msg.payload) if msg.payload else {}
            if isinstance(env, dict):
                self.on_event(msg.topic, env)
        except Exception:
            log.exception("bench sim: a message on %r was dropped", msg.topic[:200])


def run_sim_worker(args: argparse.Namespace) -> int:
    """One simulated table, plus a clock on the shoe's card frames.

    The shoe's port is wrapped so that the time each card frame's write
    returns is recorded (a retransmission, the same bytes again, is not).
    After ``--cards`` cards, or on SIGUSR1, the dealer stops at the next
    settle prompt and ``paused`` is printed; SIGTERM ends the worker."""
    from drivers import messages
    from drivers.framing import HEADER, TRAILER
    from hw_sim.rig import SimRig
    from hw_sim.table_config import deck_and_kinds

    raw = tomllib.loads(Path(args.config).read_text())
    table, broker = raw["table"]["id"], raw["mqtt"]
    spec, kinds = deck_and_kinds(raw)
    links = {name: dev["url"] for name, dev in raw["devices"].items()}
    for path in links.values():
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    rig = SimRig(spec, kinds=kinds, seed=args.seed, transport="pty", links=links, pass_probability=0.2,
                 pace=args.pace).start()
    sent: list[tuple[int, str]] = []
    last = [b""]
    pause = threading.Event()
    card_type = ord(messages.CARD)
    port = rig.shoe.port
    write = port.write

    def timed_write(data: bytes) -> int:
        n = write(data)
        now = time.monotonic_ns()
        if len(data) > HEADER and data[4] == card_type and data != last[0]:
            last[0] = bytes(data)
            # the payload is "<code> <read count>" (docs/protocols.md): the card is the first field
            sent.append((now, bytes(data[HEADER:-TRAILER]).decode("ascii", "replace").split(" ")[0]))
            if args.cards and len(sent) >= args.cards:
                pause.set()
        return n

    port.write = timed_write  # type: ignore[method-assign]
    base = f"{broker['prefix']}/{table}"
    ids = itertools.count(1)
    link: DealerLink | None = None

    def press(button: str, seat: int | None = None) -> None:
        assert link is not None
        payload = {"id": f"bench-{next(ids)}", "button": button} | ({"seat": seat} if seat is not None else {})
        link.publish(f"{base}/cmd/button", payload)

    dealer = rig.attach_dealer(press)

    def on_event(_topic: str, env: dict) -> None:
        if pause.is_set() and not dealer.paused.is_set() and (env.get("data") or {}).get("expect") == "settle":
            dealer.paused.set()
            print("paused", flush=True)
        dealer.on_event(env)

    stop = StopSignal()   # SIGTERM or SIGINT; SIGUSR1's handler runs as usual while it waits
    signal.signal(signal.SIGUSR1, lambda *_: pause.set())
    link = DealerLink(broker["host"], broker["port"], [f"{base}/event/prompt"], on_event,
                      client_id=f"{table}-bench-sim").start()
    print("ready", flush=True)
    stop.wait()
    dealer.paused.set()
    link.stop()
    rig.stop()
    Path(args.out).write_text(json.dumps({"table": table, "sent": sent, "dealer": dealer.stats.actions}))
    return 0
