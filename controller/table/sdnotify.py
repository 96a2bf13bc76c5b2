"""systemd's notify protocol: one datagram to $NOTIFY_SOCKET.

A few lines of standard library, so no dependency for it. ``notify`` sends
one or more ``KEY=value`` lines (``READY=1``, ``WATCHDOG=1``, ``STATUS=...``,
``STOPPING=1``); ``watchdog_interval`` says how often to ping, from the
``WATCHDOG_USEC`` that systemd sets when the unit has ``WatchdogSec=``
(the same rules as libsystemd's ``sd_watchdog_enabled``).
"""

from __future__ import annotations

import os
import socket


def notify(*states: str) -> bool:
    """Send ``READY=1``, ``WATCHDOG=1``, ``STOPPING=1`` ... in one datagram;
    False when not under systemd (no ``NOTIFY_SOCKET``). Raises OSError when
    the socket is there but refuses the datagram."""
    path = os.environ.get("NOTIFY_SOCKET")
    if not path or not states:
        return False
    if path.startswith("@"):
        path = "\0" + path[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(path)
        sock.sendall("\n".join(states).encode())
    return True


def watchdog_interval(environ: dict[str, str] | None = None) -> float | None:
    """Seconds between ``WATCHDOG=1`` pings: half of ``WATCHDOG_USEC``, as
    sd_watchdog_enabled(3) advises. None when no watchdog is asked of this
    process: no ``WATCHDOG_USEC``, a value that is not a positive number,
    or a ``WATCHDOG_PID`` naming another process (a parent's watchdog)."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID")
    if pid is not None and pid.strip() != str(os.getpid()):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 2_000_000 if value > 0 else None
