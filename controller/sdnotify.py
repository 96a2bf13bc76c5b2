"""systemd's notify protocol: one datagram to $NOTIFY_SOCKET.

A dozen lines of standard library, so no dependency for it.
"""

from __future__ import annotations

import os
import socket


def notify(state: str) -> bool:
    """Send ``READY=1``, ``WATCHDOG=1``, ``STOPPING=1`` ...; False when not under systemd."""
    path = os.environ.get("NOTIFY_SOCKET")
    if not path:
        return False
    if path.startswith("@"):
        path = "\0" + path[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(path)
        sock.sendall(state.encode())
    return True
