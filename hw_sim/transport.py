"""Cables between simulated devices and the controller's real serial code.

Two kinds, both giving the device a pyserial-like port (``read``, ``write``,
``in_waiting``, ``timeout``, ``cancel_read``, ``close``) and the controller a
name it opens with ``serial.serial_for_url`` exactly as it opens hardware:

* :func:`open_pty` — a real pseudo-terminal pair in raw mode on both ends.
  The controller opens ``port.path`` with pyserial's POSIX backend, so this
  exercises termios, ``select`` and the kernel's tty layer. The simulator
  keeps the slave end open too: like a device on a real line it does not
  notice the controller closing and reopening its end (a controller
  restart), and its writes never fail with EIO.
* :func:`hwsim_port` — an in-process line under ``hwsim://NAME`` (the URL
  handler is :mod:`hw_sim.urlhandler.protocol_hwsim`). Each controller open
  is a fresh ``socket.socketpair()``; the device port outlives it, so a
  controller may close and reopen like on a real line. Fast, no tty layer.

Closing the device end (an unplug) makes the controller's read raise at
once; closing the controller's end makes the device's read return at once.
Importing this module registers the URL handler package with pyserial.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import socket
import struct
import termios
import threading
import time
import tty
import weakref

import serial
from serial.serialutil import PortNotOpenError, SerialException

HANDLER_PACKAGE = "hw_sim.urlhandler"
if HANDLER_PACKAGE not in serial.protocol_handler_packages:
    serial.protocol_handler_packages.append(HANDLER_PACKAGE)


def _fionread(fd: int) -> int:
    return struct.unpack("I", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


class _Wake:
    """A self-pipe that interrupts a ``select``: closing a descriptor from
    another thread does not wake a thread blocked on it. The pipe is closed
    only when its owner is collected, so a late reader never selects on a
    reused descriptor number."""

    def __init__(self, owner: object) -> None:
        self.r, self.w = os.pipe()
        os.set_blocking(self.r, False)
        os.set_blocking(self.w, False)
        weakref.finalize(owner, _close_fds, self.r, self.w)

    def set(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self.w, b"x")

    def drain(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.read(self.r, 4096)


def _close_fds(*fds: int) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


# --- pseudo-terminal ------------------------------------------------------------
class PtyPort:
    """The device's end of a pseudo-terminal pair (the master side).

    ``path`` is what the controller opens: the symlink ``link`` if one was
    given (it survives an unplug and replug, like ``/dev/serial/by-id/...``),
    else the slave device itself (``device``).
    """

    def __init__(self, link: str | None = None, *, write_timeout: float = 1.0) -> None:
        self.timeout: float | None = None
        self.write_timeout = write_timeout
        self.link = link
        self._lock = threading.Lock()
        self._wake = _Wake(self)
        self._master, self._slave = os.openpty()
        tty.setraw(self._master)
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.device = os.ttyname(self._slave)
        self.is_open = True
        if link is not None:
            tmp = f"{link}.{os.getpid()}.tmp"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            os.symlink(self.device, tmp)
            os.replace(tmp, link)   # atomic: a reopening controller never sees a half-made link

    @property
    def path(self) -> str:
        return self.link if self.link is not None else self.device

    @property
    def in_waiting(self) -> int:
        with self._lock:
            if not self.is_open:
                raise PortNotOpenError()
            return _fionread(self._master)

    def read(self, size: int = 1) -> bytes:
        """Up to ``size`` bytes: returns as soon as some arrived, b"" on timeout or cancel."""
        if not self.is_open:
            raise PortNotOpenError()
        try:
            ready, _, _ = select.select([self._master, self._wake.r], [], [], self.timeout)
        except (OSError, ValueError) as exc:   # closed under us
            if not self.is_open:
                raise PortNotOpenError() from exc
            raise SerialException(f"pty select failed: {exc}") from exc
        with self._lock:
            if not self.is_open:
                raise PortNotOpenError()
            if self._wake.r in ready:
                self._wake.drain()
                return b""
            if not ready:
                return b""
            try:
                return os.read(self._master, size)
            except BlockingIOError:
                return b""
            except OSError as exc:
                raise SerialException(f"pty read failed: {exc}") from exc

    def write(self, data: bytes) -> int:
        """Write everything, or drop what the line will not take within
        ``write_timeout``: a device's UART sends whether anyone listens or not,
        and a simulator must never hang because the controller is away."""
        view = memoryview(bytes(data))
        deadline = time.monotonic() + self.write_timeout
        while view:
            with self._lock:
                if not self.is_open:
                    raise PortNotOpenError()
                try:
                    view = view[os.write(self._master, view):]
                    continue
                except BlockingIOError:
                    pass
                except OSError as exc:
                    raise SerialException(f"pty write failed: {exc}") from exc
            left = deadline - time.monotonic()
            if left <= 0:
                break
            with contextlib.suppress(OSError, ValueError):   # closed under us: the loop sees it
                select.select([], [self._master], [], left)
        return len(data) - len(view)

    def cancel_read(self) -> None:
        self._wake.set()

    def close(self) -> None:
        """Unplug: both ends of the pair go, the controller's reads fail at once."""
        with self._lock:
            if not self.is_open:
                return
            self.is_open = False
            self._wake.set()
            _close_fds(self._master, self._slave)
            if self.link is not None:
                with contextlib.suppress(OSError):
                    if os.readlink(self.link) == self.device:
                        os.unlink(self.link)

    def reopen(self) -> PtyPort:
        """Replug: a new pair behind the same ``link`` (the device path changes)."""
        self.close()
        return PtyPort(self.link, write_timeout=self.write_timeout)

    def __enter__(self) -> PtyPort:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_pty(link: str | None = None) -> PtyPort:
    """A raw pseudo-terminal pair; the controller opens ``port.path``."""
    return PtyPort(link)


# --- hwsim:// -------------------------------------------------------------------
_registry: dict[str, HwsimDevicePort] = {}
_registry_lock = threading.Lock()


class HwsimDevicePort:
    """The device's end of ``hwsim://NAME``: a pyserial-like port that lasts
    while the controller's end comes and goes (each open is a new socketpair).

    With no controller attached, writes go nowhere, as on a real line with
    nothing plugged into its other end.
    """

    write_timeout = 2.0
    """A controller that stops reading loses bytes after this, instead of
    hanging the device's sender."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.timeout: float | None = None
        self.is_open = True
        self._cond = threading.Condition()
        self._sock: socket.socket | None = None
        self._close_lock = threading.Lock()
        self._cancelled = False
        self._wake = _Wake(self)

    @property
    def url(self) -> str:
        return f"hwsim://{self.name}"

    # the controller's end attaches through the URL handler
    def _attach(self) -> tuple[socket.socket, socket.socket]:
        """A new connection: (the controller's socket, the device's socket,
        which the controller hands back to :meth:`_host_closed`)."""
        with self._cond:
            if not self.is_open:
                raise SerialException(f"{self.url}: device unplugged")
            if self._sock is not None:
                raise SerialException(f"{self.url}: port busy (already open)")
            host, dev = socket.socketpair()
            dev.settimeout(self.write_timeout)
            self._sock = dev
            self._cond.notify_all()
            return host, dev

    def _host_closed(self, dev: socket.socket) -> None:
        """The controller closed its end: the port is free for its next open
        at once, whether or not the device is reading right now."""
        self._detach(dev)

    def _detach(self, sock: socket.socket) -> None:
        """Forget a controller connection that ended. Only the reader closes
        the socket; a writer shuts it down, which wakes the reader's select."""
        with self._cond:
            if self._sock is sock:
                self._sock = None
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

    @property
    def attached(self) -> bool:
        return self._sock is not None

    @property
    def in_waiting(self) -> int:
        if not self.is_open:
            raise PortNotOpenError()
        sock = self._sock
        if sock is None:
            return 0
        try:
            return _fionread(sock.fileno())
        except (OSError, ValueError):
            return 0

    def read(self, size: int = 1) -> bytes:
        """Up to ``size`` bytes; b"" on timeout, cancel, or when the controller lets go."""
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        with self._cond:
            while self.is_open and self._sock is None and not self._cancelled:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return b""
                self._cond.wait(left)
            if not self.is_open:
                raise PortNotOpenError()
            if self._cancelled:
                self._cancelled = False
                self._wake.drain()
                return b""
            sock = self._sock
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            ready, _, _ = select.select([sock, self._wake.r], [], [], left)
        except (OSError, ValueError):   # the socket was closed under us
            ready = [sock]
        if self._wake.r in ready:
            with self._cond:
                self._cancelled = False
            self._wake.drain()
            if not self.is_open:
                raise PortNotOpenError()
            return b""
        if not ready:
            return b""
        try:
            data = sock.recv(size)
        except (BlockingIOError, TimeoutError):
            return b""
        except OSError:
            data = b""
        if not data:            # the controller closed its end
            self._detach(sock)
            with contextlib.suppress(OSError):
                sock.close()
        return data

    def write(self, data: bytes) -> int:
        if not self.is_open:
            raise PortNotOpenError()
        sock = self._sock
        if sock is not None:
            try:
                sock.sendall(data)
            except OSError:     # controller gone mid-write (or not reading): the bytes are lost
                self._detach(sock)
        return len(data)

    def cancel_read(self) -> None:
        with self._cond:
            self._cancelled = True
            self._cond.notify_all()
        self._wake.set()

    def close(self) -> None:
        """Unplug: the controller's read raises at once; the name is free
        again when this returns (for every caller, not just the first)."""
        with self._close_lock:
            with self._cond:
                if not self.is_open:
                    return
                self.is_open = False
                sock, self._sock = self._sock, None
                self._cond.notify_all()
            self._wake.set()
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                with contextlib.suppress(OSError):
                    sock.close()
            with _registry_lock:
                if _registry.get(self.name) is self:
                    del _registry[self.name]

    def reopen(self) -> HwsimDevicePort:
        """Replug under the same name."""
        self.close()
        return hwsim_port(self.name)

    def __enter__(self) -> HwsimDevicePort:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def hwsim_port(name: str) -> HwsimDevicePort:
    """Plug in a simulated device as ``hwsim://NAME``; returns the device's end."""
    if not name or "/" in name or "?" in name:
        raise ValueError(f"bad hwsim port name {name!r}")
    with _registry_lock:
        if name in _registry:
            raise ValueError(f"hwsim://{name} is already plugged in")
        port = _registry[name] = HwsimDevicePort(name)
    return port


def lookup(name: str) -> HwsimDevicePort | None:
    """The device port plugged in under ``name`` (for the URL handler)."""
    with _registry_lock:
        return _registry.get(name)
