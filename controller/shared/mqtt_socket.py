"""One socket option for every MQTT client of the project: TCP_NODELAY.

paho-mqtt leaves Nagle's algorithm on. MQTT packets are small and often
follow one another closely (an event, then the next; a PUBACK, then a
command), so with Nagle on a packet can wait for the TCP acknowledgement of
the one before it, and the receiver's delayed ACK holds that back for up to
40 ms on Linux. `tablectl bench` measured it: a dealer's button press over
``cmd/button`` took ~88 ms from prompt to button event instead of ~2.6 ms. Every
client the project creates sets this in ``on_socket_open``; the brokers we start set
``set_tcp_nodelay true`` (and docs/performance.md asks the same of the pit's).
"""

from __future__ import annotations

import contextlib
import socket
from typing import Any


def tcp_no_delay(_client: Any, _userdata: Any, sock: Any) -> None:
    """paho ``on_socket_open`` callback: send each packet as soon as it is written."""
    with contextlib.suppress(OSError, AttributeError):   # not TCP (unix socket, websocket wrapper)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
