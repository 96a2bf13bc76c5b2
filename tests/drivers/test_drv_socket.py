"""The drivers on pyserial's socket:// transport (a serial server on the network)."""

from __future__ import annotations

import queue
import socket

from drivers.events import DeviceOffline, DeviceOnline
from drivers.framing import FrameDecoder, encode
from drivers.shoe import ShoeDriver


def test_shoe_driver_over_socket_url():
    server = socket.create_server(("127.0.0.1", 0))
    inbox: queue.Queue = queue.Queue()
    driver = ShoeDriver("shoe", f"socket://127.0.0.1:{server.getsockname()[1]}", inbox, heartbeat_timeout=2)
    driver.start()
    try:
        conn, _ = server.accept()
        conn.settimeout(2)
        decoder, frames = FrameDecoder(), []
        while not frames:
            frames = decoder.feed(conn.recv(100))
        assert [(f.type, f.seq) for f in frames] == [("S", 0)]
        conn.sendall(encode(0, "A", "0") + encode(0, "I", "SOCK 2.0"))
        assert inbox.get(timeout=2) == DeviceOnline("shoe", "")          # the ACK: heard, no hello yet
        assert inbox.get(timeout=2) == DeviceOnline("shoe", "SOCK 2.0")  # the hello
        conn.close()                                   # the serial server goes away
        event = inbox.get(timeout=2)
        assert isinstance(event, DeviceOffline) and event.reason.startswith("port error")
    finally:
        driver.stop()
        server.close()
