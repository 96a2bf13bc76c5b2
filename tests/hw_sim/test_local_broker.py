"""The demo's own broker (hw_sim.broker.LocalBroker), embedded: a client that leaves before
CONNECT must not cost the next client its connection.

Found by the flaky ``test_demo_prints_broker_first_deals_n_rounds_and_exits_0[embedded]``
(about one run in 150 under load): the test's subscriber had its CONNACK, sent SUBSCRIBE, and
the broker never read it. amqtt left LocalBroker's own start-up probe (a TCP connect and close)
open; the garbage collector, on another thread, finalized its transport (closing the socket,
so the next client accepted got the same descriptor number) and then its StreamWriter, whose
``close()`` unregistered that number from the broker's event loop.
"""

from __future__ import annotations

import asyncio
import gc
import socket
import subprocess
import sys
import time

import pytest

from hw_sim.broker import LocalBroker

CLIENT = r"""
import queue, sys
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
events = queue.Queue()
c = mqtt.Client(CallbackAPIVersion.VERSION2)
c.on_connect = lambda *a: events.put("CONNACK")
c.on_subscribe = lambda *a: events.put("SUBACK")
c.connect(sys.argv[1], int(sys.argv[2]), keepalive=30)
c.loop_start()
print(events.get(timeout=10), flush=True)
sys.stdin.readline()
c.subscribe("x/#", qos=1)
try:
    print(events.get(timeout=10), flush=True)
except queue.Empty:
    print("no SUBACK", flush=True)
"""


def _left_open(port: int) -> list[asyncio.StreamWriter]:
    """The broker's streams to a client at ``port`` that nobody closed."""
    return [o for o in gc.get_objects() if isinstance(o, asyncio.StreamWriter) and not o.transport.is_closing()
            and (o.transport.get_extra_info("peername") or (None, None))[1] == port]


def test_a_client_that_leaves_before_connect_costs_the_next_client_nothing() -> None:
    """Replays what the garbage collector does, in its order, with a client accepted in between
    (in another process, as the test's subscriber is): whatever the broker left open of a client
    that left before CONNECT is finalized, the transport first, then its StreamWriter; the next
    client still has its SUBACK. Before the fix it had CONNACK and then nothing, every time.
    The quitter is seen accepted before it leaves (else the wait for the broker to close it could
    end before the broker had it: 1 run in 8 failed so), and keeps its own descriptor till the end,
    so that the number the replay frees is the one the next client gets."""
    pytest.importorskip("amqtt")
    gc.disable()  # nothing is finalized but what this test finalizes
    try:
        with LocalBroker(prefer="embedded") as broker:
            with socket.create_connection((broker.host, broker.port)) as quitter:
                gone = quitter.getsockname()[1]
                deadline = time.monotonic() + 5
                while not _left_open(gone) and time.monotonic() < deadline:  # until the broker accepted it
                    time.sleep(0.01)
                quitter.shutdown(socket.SHUT_RDWR)  # it leaves; its descriptor stays taken till the end
                deadline = time.monotonic() + 5
                while _left_open(gone) and time.monotonic() < deadline:  # the broker closes it, at once
                    time.sleep(0.05)
                left = _left_open(gone)
                for writer in left:
                    writer.transport.__del__()  # the socket closes: its descriptor number is free
                client = subprocess.Popen([sys.executable, "-c", CLIENT, broker.host, str(broker.port)],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                try:
                    assert client.stdout.readline().strip() == "CONNACK"
                    for writer in left:
                        writer.__del__()  # transport.close(): unregisters that number from the loop
                    client.stdin.write("subscribe\n")
                    client.stdin.flush()
                    assert client.stdout.readline().strip() == "SUBACK"
                finally:
                    client.kill()
                    client.wait()
            assert not left, "the broker left a connection open for the garbage collector"
    finally:
        gc.enable()
