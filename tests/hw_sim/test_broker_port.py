"""The demo's broker on a port asked for (hw_sim.broker.LocalBroker, `tablectl demo --mqtt-port`):
a port another broker holds is refused, never silently used; an external broker is used only when
asked for by name; a Mosquitto that cannot start says why at once."""

from __future__ import annotations

import re
import socket
import subprocess
import sys

import pytest
from mqtt_support import Subscriber

from hw_sim.broker import LocalBroker, PortBusy, mosquitto_path

TABLECTL = [sys.executable, "-m", "controller.cli"]
needs_mosquitto = pytest.mark.skipif(mosquitto_path() is None, reason="needs mosquitto")


@pytest.mark.parametrize("prefer", ["auto", "embedded"])
def test_a_port_another_broker_holds_is_refused_and_nothing_starts(broker, prefer: str) -> None:
    with pytest.raises(PortBusy) as caught:
        LocalBroker(port=broker.port, prefer=prefer).start()
    assert str(caught.value) == (f"port {broker.port} on 127.0.0.1 is in use (another broker, or another "
                                 "program, listens there)")


def test_a_port_any_listener_holds_is_refused() -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        with pytest.raises(PortBusy):
            LocalBroker(port=held.getsockname()[1]).start()


@needs_mosquitto
def test_a_mosquitto_that_cannot_listen_says_why_at_once() -> None:
    """An address no interface has (TEST-NET-3): Mosquitto exits, and its own words come back."""
    with pytest.raises(RuntimeError) as caught:
        LocalBroker(port=18830, host="203.0.113.7", prefer="mosquitto").start()
    assert re.match(r"mosquitto exited with status \d+ before listening on 203\.0\.113\.7:18830: .*"
                    r"Cannot assign requested address", str(caught.value)), str(caught.value)


def test_an_external_broker_is_used_only_when_named(broker) -> None:
    external = LocalBroker(port=broker.port, prefer="external").start()
    assert (external.kind, external.address) == ("external", f"127.0.0.1:{broker.port}")
    external.stop()   # not ours: stopping it leaves the broker running
    Subscriber(broker.host, broker.port, "x/#").close()
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    with pytest.raises(RuntimeError) as caught:
        LocalBroker(port=port, prefer="external").start()
    assert str(caught.value) == f"no broker listens on 127.0.0.1:{port}"


def test_tablectl_demo_refuses_a_busy_port_in_one_line(broker) -> None:
    done = subprocess.run([*TABLECTL, "demo", "--mqtt-port", str(broker.port), "--rounds", "1"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (f"tablectl demo: port {broker.port} on 127.0.0.1 is in use (another broker, or another "
                           "program, listens there): give another --mqtt-port, leave it out for a free one, or "
                           "--broker external to deal on the broker there\n")


def test_tablectl_demo_deals_on_an_external_broker_when_told(broker) -> None:
    results = Subscriber(broker.host, broker.port, "casino/+/event/result")
    try:
        done = subprocess.run([*TABLECTL, "demo", "--broker", "external", "--mqtt-port", str(broker.port),
                               "--rounds", "2"], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"broker 127.0.0.1:{broker.port} (external); watch it with")
        assert results.get(10).json()["kind"] == "result"     # on the broker that was already there
    finally:
        results.close()


@pytest.mark.parametrize("args, error", [
    (["--broker", "external"], "tablectl demo: --broker external needs --mqtt-port: the port the broker listens on"),
    (["--mqtt-port", "70000"], "argument --mqtt-port: a port is a number 1-65535, not 70000"),
    (["--mqtt-port", "x"], "argument --mqtt-port: a port is a number 1-65535, not 'x'"),
])
def test_bad_broker_options_exit_2_naming_them(args: list[str], error: str) -> None:
    done = subprocess.run([*TABLECTL, "demo", *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and error in done.stderr, done.stderr
