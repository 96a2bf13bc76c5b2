"""``hwsim://NAME``: the controller's end of an in-process simulated line.

``serial.serial_for_url("hwsim://shoe1", baudrate=115200, timeout=0.5)``
attaches to the device plugged in with :func:`hw_sim.transport.hwsim_port`.
It behaves like pyserial's POSIX port where the link relies on it: ``read``
blocks up to ``timeout`` and returns as soon as ``size`` bytes arrived,
``cancel_read`` wakes a blocked read, and an unplugged device makes ``read``
raise :class:`serial.SerialException` at once. Line settings are accepted
and ignored, as pyserial's ``socket://`` handler does.
"""

from __future__ import annotations

import contextlib
import select
import socket
import urllib.parse

from serial.serialutil import PortNotOpenError, SerialBase, SerialException, Timeout, to_bytes

from hw_sim import transport


class Serial(SerialBase):
    """Serial port over a socketpair to a simulated device."""

    _sock: socket.socket | None = None
    _wake: transport._Wake | None = None
    _device: transport.HwsimDevicePort | None = None
    _token: socket.socket | None = None

    def open(self) -> None:
        if self._port is None:
            raise SerialException("Port must be configured before it can be used.")
        if self.is_open:
            raise SerialException("Port is already open.")
        name = self._name_from_url(self.portstr)
        device = transport.lookup(name)
        if device is None:
            raise SerialException(f"could not open port hwsim://{name}: no such simulated device plugged in")
        self._sock, self._token = device._attach()
        self._device = device
        self._wake = transport._Wake(self)
        self.is_open = True

    @staticmethod
    def _name_from_url(url: str) -> str:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "hwsim" or not parts.netloc or parts.path not in ("", "/") or parts.query:
            raise SerialException(f"expected hwsim://NAME, not {url!r}")
        return parts.netloc

    def _reconfigure_port(self, *args: object, **kwargs: object) -> None:
        """Baud rate, parity and the rest mean nothing on a socketpair."""

    def _update_dtr_state(self) -> None:
        pass

    def _update_rts_state(self) -> None:
        pass

    def _update_break_state(self) -> None:
        pass

    def close(self) -> None:
        if self.is_open and self._sock is not None:
            self.is_open = False
            if self._wake is not None:
                self._wake.set()
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                self._sock.close()
            if self._device is not None and self._token is not None:
                self._device._host_closed(self._token)
        self.is_open = False

    def _live(self) -> socket.socket:
        if not self.is_open or self._sock is None:
            raise PortNotOpenError()
        return self._sock

    @property
    def in_waiting(self) -> int:
        sock = self._live()
        try:
            return transport._fionread(sock.fileno())
        except (OSError, ValueError) as exc:
            raise SerialException(f"hwsim: {exc}") from exc

    def read(self, size: int = 1) -> bytes:
        sock = self._live()
        assert self._wake is not None
        out = bytearray()
        timeout = Timeout(self._timeout)
        while len(out) < size:
            try:
                ready, _, _ = select.select([sock, self._wake.r], [], [], timeout.time_left())
            except (OSError, ValueError) as exc:
                raise SerialException(f"hwsim: port closed: {exc}") from exc
            if self._wake.r in ready:
                self._wake.drain()
                break
            if not ready:
                break
            try:
                chunk = sock.recv(size - len(out))
            except OSError as exc:
                raise SerialException(f"hwsim: read failed: {exc}") from exc
            if not chunk:
                raise SerialException("hwsim: device disconnected (unplugged)")
            out += chunk
            if timeout.expired():
                break
        return bytes(out)

    def write(self, data: bytes) -> int:
        sock = self._live()
        payload = to_bytes(data)
        try:
            sock.sendall(payload)
        except OSError as exc:
            raise SerialException(f"hwsim: write failed: {exc}") from exc
        return len(payload)

    def cancel_read(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def reset_input_buffer(self) -> None:
        sock = self._live()
        while select.select([sock], [], [], 0)[0]:
            try:
                if not sock.recv(4096, socket.MSG_DONTWAIT):
                    break
            except OSError:
                break

    def reset_output_buffer(self) -> None:
        self._live()

    def send_break(self, duration: float = 0.25) -> None:
        self._live()

    @property
    def cts(self) -> bool:
        return True

    @property
    def dsr(self) -> bool:
        return True

    @property
    def ri(self) -> bool:
        return False

    @property
    def cd(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._live().fileno()
