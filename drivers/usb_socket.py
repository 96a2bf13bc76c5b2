"""A USB device served over a Unix socket, as a pyusb backend: ``backend = "unix:/PATH"``.

Like USB/IP, but minimal and local: a program that owns a USB device (the simulator's cup,
hw_sim.usb_socket) serves the calls pyusb makes of a backend (``usb.backend.IBackend``) on a Unix
socket, and :class:`UnixSocketBackend` makes them on the other side. So a controller in another
process (``tablectl run`` beside ``tablectl sim``) reaches that device with its real pyusb code path,
``usb.core.find`` and every transfer unchanged: only the backend differs from a Pi's libusb.

The wire (docs/protocols.md, "USB over a Unix socket"): each message is a 4-byte big-endian length
(1 to :data:`MAX_MESSAGE`) and that many bytes of a UTF-8 JSON object. A request is ``{"id": n,
"op": ..., args}``, ``n`` a positive integer unique among the connection's requests in flight;
its reply ``{"id": n, "result": {...}}`` or ``{"id": n, "error": {"kind", "errno", "code",
"text"}}``. Requests may overlap: a read blocked on an endpoint does not hold up a control request
(a reader thread takes the replies and hands each to its caller). Byte strings travel as hex.
:data:`OPS` lists the requests and their arguments.

What the driver sees, and why:
- nothing listening at the path (the simulator is not running, or stopped): no device on the bus,
  as an unplugged cup (so the table's offline/online handling applies); a connection lost
  (the server stopped, or sent what this protocol does not allow): every call in flight and every
  handle opened on it fails with ENODEV (or EPROTO naming the fault), as an unplugged device's do,
  and the next ``find`` connects again;
- a server that does not answer within a transfer's timeout plus :data:`GRACE` seconds is taken
  as lost too: a hung peer must not hang the driver;
- errors the device gives (a stall, a timeout, a request it does not know) come back as the
  ``usb.core`` errors libusb would raise, with their errno.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import json
import logging
import os
import socket
import stat
import struct
import threading
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import usb.backend
import usb.core

log = logging.getLogger(__name__)

SCHEME = "unix:"
MAX_MESSAGE = 65536
"""The longest message either side sends or takes (a descriptor, a transfer of up to 16 KiB in hex)."""
MAX_TRANSFER = 16384
GRACE = 2.0
"""Seconds a reply may come after its transfer's own timeout before the server counts as lost."""
CALL_WAIT = 5.0
"""Seconds for a request without a timeout of its own (enumerate, descriptors, open, claim ...)."""

DEVICE_FIELDS = ("bLength", "bDescriptorType", "bcdUSB", "bDeviceClass", "bDeviceSubClass", "bDeviceProtocol",
                 "bMaxPacketSize0", "idVendor", "idProduct", "bcdDevice", "iManufacturer", "iProduct",
                 "iSerialNumber", "bNumConfigurations", "address", "bus", "port_number", "port_numbers", "speed")
CONFIGURATION_FIELDS = ("bLength", "bDescriptorType", "wTotalLength", "bNumInterfaces", "bConfigurationValue",
                        "iConfiguration", "bmAttributes", "bMaxPower", "extra_descriptors")
INTERFACE_FIELDS = ("bLength", "bDescriptorType", "bInterfaceNumber", "bAlternateSetting", "bNumEndpoints",
                    "bInterfaceClass", "bInterfaceSubClass", "bInterfaceProtocol", "iInterface", "extra_descriptors")
ENDPOINT_FIELDS = ("bLength", "bDescriptorType", "bEndpointAddress", "bmAttributes", "wMaxPacketSize", "bInterval",
                   "bRefresh", "bSynchAddress", "extra_descriptors")
"""The fields pyusb's ``usb.core`` reads of each descriptor (and so what the server sends of it)."""

OPS: dict[str, tuple[str, ...]] = {
    "enumerate": (),
    "device_descriptor": ("dev",),
    "configuration_descriptor": ("dev", "config"),
    "interface_descriptor": ("dev", "intf", "alt", "config"),
    "endpoint_descriptor": ("dev", "ep", "intf", "alt", "config"),
    "open": ("dev",),
    "close": ("handle",),
    "set_configuration": ("handle", "value"),
    "get_configuration": ("handle",),
    "set_interface_altsetting": ("handle", "intf", "alt"),
    "claim_interface": ("handle", "intf"),
    "release_interface": ("handle", "intf"),
    "bulk_write": ("handle", "ep", "intf", "data", "timeout"),
    "intr_write": ("handle", "ep", "intf", "data", "timeout"),
    "bulk_read": ("handle", "ep", "intf", "size", "timeout"),
    "intr_read": ("handle", "ep", "intf", "size", "timeout"),
    "ctrl_transfer": ("handle", "request_type", "request", "value", "index", "data", "size", "timeout"),
    "clear_halt": ("handle", "ep"),
    "reset_device": ("handle",),
    "is_kernel_driver_active": ("handle", "intf"),
    "detach_kernel_driver": ("handle", "intf"),
    "attach_kernel_driver": ("handle", "intf"),
}
"""Every request and its arguments (integers, except ``data``: hex). Replies: ``enumerate`` ->
``devices`` (ids), a descriptor -> ``fields``, ``open`` -> ``handle``, a read -> ``data``, a write
-> ``count``, ``ctrl_transfer`` -> ``data`` (IN: ``size`` bytes asked) or ``count`` (OUT: ``data``
sent), ``get_configuration`` and ``is_kernel_driver_active`` -> ``value``; the others ``{}``."""

ERROR_KINDS = ("usb", "timeout", "not_implemented", "index", "bad_request")


class MessageError(ValueError):
    """A message that breaks the framing or is not a JSON object; the text says which."""


def encode_message(message: dict[str, Any]) -> bytes:
    body = json.dumps(message, separators=(",", ":")).encode()
    if len(body) > MAX_MESSAGE:
        raise MessageError(f"a message of {len(body)} bytes: at most {MAX_MESSAGE}")
    return struct.pack(">I", len(body)) + body


def _exactly(stream: BinaryIO, n: int, what: str) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            if not data and what == "length":
                return None   # the peer closed between messages
            raise MessageError(f"the connection ended inside a message's {what} ({len(data)} of {n} bytes)")
        data += chunk
    return data


def read_message(stream: BinaryIO) -> dict[str, Any] | None:
    """The next message, or None when the peer closed cleanly between two; :class:`MessageError`
    for one that breaks the protocol (after which the stream cannot be trusted)."""
    head = _exactly(stream, 4, "length")
    if head is None:
        return None
    (length,) = struct.unpack(">I", head)
    if not 1 <= length <= MAX_MESSAGE:
        raise MessageError(f"a message of {length} bytes: 1 to {MAX_MESSAGE}")
    body = _exactly(stream, length, "body")
    assert body is not None
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise MessageError(f"a message that is not UTF-8 JSON ({type(exc).__name__})") from None
    if not isinstance(message, dict):
        raise MessageError(f"a message that is a JSON {type(message).__name__}, not an object")
    return message


def socket_path(name: str) -> str:
    """The path of a ``unix:/PATH`` backend name; ValueError naming what is wrong."""
    path = name[len(SCHEME):] if name.startswith(SCHEME) else ""
    if not path.startswith("/"):
        raise ValueError(f"a {SCHEME} USB backend names an absolute socket path ({SCHEME}/run/cup.sock), not {name!r}")
    if len(path.encode()) > 107:
        raise ValueError(f"USB socket {path}: {len(path.encode())} bytes, a Unix socket's path holds at most 107")
    return path


class _Descriptor:
    """A descriptor as pyusb reads it: its fields as attributes."""

    def __init__(self, fields: dict[str, Any], names: tuple[str, ...]) -> None:
        for name in names:
            value = fields.get(name)
            if name == "extra_descriptors":
                value = array("B", value or [])
            elif name == "port_numbers" and value is not None:
                value = tuple(value)
            setattr(self, name, value)


@dataclass
class _Pending:
    done: threading.Event = field(default_factory=threading.Event)
    reply: dict[str, Any] | None = None


class _Lost(Exception):
    """The connection is gone; ``why`` says how, ``errno`` what a caller sees (ENODEV, or EPROTO)."""

    def __init__(self, why: str, code: int = errno.ENODEV) -> None:
        super().__init__(why)
        self.why = why
        self.errno = code


class _Connection:
    """One connection to the server: requests out, and a reader thread handing each reply to its caller."""

    def __init__(self, path: str, sock: socket.socket) -> None:
        self.path = path
        self._sock = sock
        self._stream = sock.makefile("rb")
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._lock = threading.Lock()
        self._write = threading.Lock()
        self.lost: _Lost | None = None
        self._reader = threading.Thread(target=self._read, name=f"usb-socket-{path}", daemon=True)
        self._reader.start()

    def call(self, message: dict[str, Any], wait: float | None) -> dict[str, Any]:
        pending = _Pending()
        with self._lock:
            if self.lost is not None:
                raise self.lost
            rid = next(self._ids)
            self._pending[rid] = pending
        try:
            data = encode_message({"id": rid, **message})
            with self._write:
                self._sock.sendall(data)
            if not pending.done.wait(wait):
                self.close(f"the server did not answer {message['op']} within {wait:g} s")
        except OSError as exc:
            self.close(f"the connection failed: {exc.strerror or exc}")
        finally:
            with self._lock:
                self._pending.pop(rid, None)
        if pending.reply is None:
            raise self.lost or _Lost("the connection was lost")
        return pending.reply

    def _read(self) -> None:
        why, code = "the server closed the connection", errno.ENODEV
        try:
            while True:
                message = read_message(self._stream)
                if message is None:
                    break
                rid = message.get("id")
                with self._lock:
                    pending = self._pending.get(rid) if isinstance(rid, int) and not isinstance(rid, bool) else None
                if pending is None:
                    # A reply to no request in flight: the server is confused, or answers a request
                    # of ours it could not read (id null). Either way it is not the peer we know.
                    error = message.get("error")
                    said = f": {error.get('text')}" if isinstance(error, dict) else ""
                    why, code = f"the server sent a reply to no request in flight (id {rid!r}){said}", errno.EPROTO
                    break
                pending.reply = message
                pending.done.set()
        except MessageError as exc:
            why, code = f"the server sent {exc}", errno.EPROTO
        except OSError as exc:
            why = f"the connection failed: {exc.strerror or exc}"
        self.close(why, code)

    def close(self, why: str, code: int = errno.ENODEV) -> None:
        with self._lock:
            if self.lost is None:
                self.lost = _Lost(f"USB socket {self.path}: {why}", code)
                log.info("%s", self.lost.why)
            pending, self._pending = list(self._pending.values()), {}
        for p in pending:
            p.done.set()
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()


@dataclass(frozen=True)
class _RemoteDevice:
    conn: _Connection
    id: int


@dataclass(frozen=True)
class _RemoteHandle:
    conn: _Connection
    id: int


class UnixSocketBackend(usb.backend.IBackend):
    """pyusb's backend for the devices a server offers on the Unix socket at ``path``."""

    def __init__(self, path: str, *, grace: float = GRACE, call_wait: float = CALL_WAIT) -> None:
        super().__init__()
        self.path = path
        self.grace = grace
        self.call_wait = call_wait
        self._conn: _Connection | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"UnixSocketBackend({self.path!r})"

    def close(self) -> None:
        """Drop the connection (handles opened on it die, as an unplugged device's do)."""
        with self._lock:
            conn, self._conn = self._conn, None
        if conn is not None:
            conn.close("closed by this process")

    # --- the connection ----------------------------------------------------------------------
    def _connection(self) -> _Connection | None:
        """The live connection, connecting if there is none; None when nothing listens at the path."""
        with self._lock:
            if self._conn is not None and self._conn.lost is None:
                return self._conn
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.connect(self.path)
            except (FileNotFoundError, ConnectionRefusedError):
                sock.close()
                if not _is_socket_or_absent(self.path):
                    raise usb.core.USBError(f"USB socket {self.path}: what is there is not a socket") from None
                return None   # nobody serves the bus: no device is plugged in
            except OSError as exc:
                sock.close()
                raise usb.core.USBError(f"USB socket {self.path}: {exc.strerror or exc}") from None
            self._conn = _Connection(self.path, sock)
            return self._conn

    def _call(self, conn: _Connection | None, op: str, *, timeout_ms: int | None = None,
              **args: Any) -> dict[str, Any]:
        if conn is None:
            raise usb.core.USBError(f"USB socket {self.path}: nothing serves it", errno=errno.ENODEV)
        wait: float | None = self.call_wait
        if timeout_ms is not None:
            wait = None if timeout_ms == 0 else timeout_ms / 1000 + self.grace
            args["timeout"] = timeout_ms
        try:
            reply = conn.call({"op": op, **args}, wait)
        except _Lost as lost:
            raise usb.core.USBError(lost.why, errno=lost.errno) from None
        error = reply.get("error")
        if error is not None:
            raise _raised(self.path, op, error)
        result = reply.get("result")
        if not isinstance(result, dict):
            raise usb.core.USBError(f"USB socket {self.path}: the reply to {op} has neither a result nor an error",
                                    errno=errno.EPROTO)
        return result

    def _handle_call(self, handle: _RemoteHandle, op: str, **kw: Any) -> dict[str, Any]:
        return self._call(handle.conn, op, handle=handle.id, **kw)

    def _field(self, result: dict[str, Any], op: str, name: str, kind: type) -> Any:
        value = result.get(name)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise usb.core.USBError(f"USB socket {self.path}: the reply to {op} has no {kind.__name__} {name!r}",
                                    errno=errno.EPROTO)
        return value

    def _bytes(self, result: dict[str, Any], op: str, limit: int) -> bytes:
        text = self._field(result, op, "data", str)
        try:
            data = bytes.fromhex(text)
        except ValueError:
            raise usb.core.USBError(f"USB socket {self.path}: the reply to {op} has data that is not hex",
                                    errno=errno.EPROTO) from None
        if len(data) > limit:
            raise usb.core.USBError(f"USB socket {self.path}: the reply to {op} has {len(data)} bytes for a buffer "
                                    f"of {limit}", errno=errno.EOVERFLOW)
        return data

    # --- enumeration and descriptors ----------------------------------------------------------
    def enumerate_devices(self) -> Iterator[_RemoteDevice]:
        conn = self._connection()
        if conn is None:
            return iter(())
        result = self._call(conn, "enumerate")
        ids = result.get("devices")
        if not isinstance(ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
            raise usb.core.USBError(f"USB socket {self.path}: the reply to enumerate has no list of device ids",
                                    errno=errno.EPROTO)
        return iter([_RemoteDevice(conn, i) for i in ids])

    def get_parent(self, dev: _RemoteDevice) -> None:
        return None

    def _descriptor(self, dev: _RemoteDevice, op: str, names: tuple[str, ...], **args: Any) -> _Descriptor:
        result = self._call(dev.conn, op, dev=dev.id, **args)
        return _Descriptor(self._field(result, op, "fields", dict), names)

    def get_device_descriptor(self, dev: _RemoteDevice) -> _Descriptor:
        return self._descriptor(dev, "device_descriptor", DEVICE_FIELDS)

    def get_configuration_descriptor(self, dev: _RemoteDevice, config: int) -> _Descriptor:
        return self._descriptor(dev, "configuration_descriptor", CONFIGURATION_FIELDS, config=config)

    def get_interface_descriptor(self, dev: _RemoteDevice, intf: int, alt: int, config: int) -> _Descriptor:
        return self._descriptor(dev, "interface_descriptor", INTERFACE_FIELDS, intf=intf, alt=alt, config=config)

    def get_endpoint_descriptor(self, dev: _RemoteDevice, ep: int, intf: int, alt: int, config: int) -> _Descriptor:
        return self._descriptor(dev, "endpoint_descriptor", ENDPOINT_FIELDS, ep=ep, intf=intf, alt=alt, config=config)

    # --- handles -----------------------------------------------------------------------------
    def open_device(self, dev: _RemoteDevice) -> _RemoteHandle:
        result = self._call(dev.conn, "open", dev=dev.id)
        return _RemoteHandle(dev.conn, self._field(result, "open", "handle", int))

    def close_device(self, dev_handle: _RemoteHandle) -> None:
        if dev_handle.conn.lost is None:   # a lost connection closed its handles with it
            self._handle_call(dev_handle, "close")

    def set_configuration(self, dev_handle: _RemoteHandle, config_value: int) -> None:
        self._handle_call(dev_handle, "set_configuration", value=config_value)

    def get_configuration(self, dev_handle: _RemoteHandle) -> int:
        return self._field(self._handle_call(dev_handle, "get_configuration"), "get_configuration", "value", int)

    def set_interface_altsetting(self, dev_handle: _RemoteHandle, intf: int, altsetting: int) -> None:
        self._handle_call(dev_handle, "set_interface_altsetting", intf=intf, alt=altsetting)

    def claim_interface(self, dev_handle: _RemoteHandle, intf: int) -> None:
        self._handle_call(dev_handle, "claim_interface", intf=intf)

    def release_interface(self, dev_handle: _RemoteHandle, intf: int) -> None:
        if dev_handle.conn.lost is None:
            self._handle_call(dev_handle, "release_interface", intf=intf)

    def is_kernel_driver_active(self, dev_handle: _RemoteHandle, intf: int) -> bool:
        return self._field(self._handle_call(dev_handle, "is_kernel_driver_active", intf=intf),
                           "is_kernel_driver_active", "value", bool)

    def detach_kernel_driver(self, dev_handle: _RemoteHandle, intf: int) -> None:
        self._handle_call(dev_handle, "detach_kernel_driver", intf=intf)

    def attach_kernel_driver(self, dev_handle: _RemoteHandle, intf: int) -> None:
        self._handle_call(dev_handle, "attach_kernel_driver", intf=intf)

    def reset_device(self, dev_handle: _RemoteHandle) -> None:
        self._handle_call(dev_handle, "reset_device")

    def clear_halt(self, dev_handle: _RemoteHandle, ep: int) -> None:
        self._handle_call(dev_handle, "clear_halt", ep=ep)

    # --- transfers -----------------------------------------------------------------------------
    def _read(self, op: str, dev_handle: _RemoteHandle, ep: int, intf: int, buff: array, timeout: int) -> int:
        size = len(buff) * buff.itemsize
        result = self._handle_call(dev_handle, op, ep=ep, intf=intf, size=size, timeout_ms=timeout)
        data = self._bytes(result, op, size)
        memoryview(buff).cast("B")[:len(data)] = data
        return len(data)

    def _write_to(self, op: str, dev_handle: _RemoteHandle, ep: int, intf: int, data: array, timeout: int) -> int:
        result = self._handle_call(dev_handle, op, ep=ep, intf=intf, data=data.tobytes().hex(), timeout_ms=timeout)
        return self._field(result, op, "count", int)

    def bulk_read(self, dev_handle: _RemoteHandle, ep: int, intf: int, buff: array, timeout: int) -> int:
        return self._read("bulk_read", dev_handle, ep, intf, buff, timeout)

    def intr_read(self, dev_handle: _RemoteHandle, ep: int, intf: int, buff: array, timeout: int) -> int:
        return self._read("intr_read", dev_handle, ep, intf, buff, timeout)

    def bulk_write(self, dev_handle: _RemoteHandle, ep: int, intf: int, data: array, timeout: int) -> int:
        return self._write_to("bulk_write", dev_handle, ep, intf, data, timeout)

    def intr_write(self, dev_handle: _RemoteHandle, ep: int, intf: int, data: array, timeout: int) -> int:
        return self._write_to("intr_write", dev_handle, ep, intf, data, timeout)

    def ctrl_transfer(self, dev_handle: _RemoteHandle, bmRequestType: int, bRequest: int, wValue: int, wIndex: int,
                      data: array, timeout: int) -> int:
        size = len(data) * data.itemsize
        setup = {"request_type": bmRequestType, "request": bRequest, "value": wValue, "index": wIndex}
        if bmRequestType & 0x80:   # IN: the device fills the buffer
            result = self._handle_call(dev_handle, "ctrl_transfer", **setup, data=None, size=size, timeout_ms=timeout)
            got = self._bytes(result, "ctrl_transfer", size)
            memoryview(data).cast("B")[:len(got)] = got
            return len(got)
        result = self._handle_call(dev_handle, "ctrl_transfer", **setup, data=data.tobytes().hex(), size=None,
                                   timeout_ms=timeout)
        return self._field(result, "ctrl_transfer", "count", int)


def _is_socket_or_absent(path: str) -> bool:
    try:
        return stat.S_ISSOCK(os.lstat(path).st_mode)
    except OSError:
        return True


def _raised(path: str, op: str, error: Any) -> Exception:
    """The exception an error reply stands for: what libusb would have raised for the device's error."""
    if not isinstance(error, dict) or error.get("kind") not in ERROR_KINDS:
        return usb.core.USBError(f"USB socket {path}: the reply to {op} has an error this protocol does not know",
                                 errno=errno.EPROTO)
    text = str(error.get("text") or "")[:500]
    code = error.get("errno") if isinstance(error.get("errno"), int) else None
    backend_code = error.get("code") if isinstance(error.get("code"), int) else None
    kind = error["kind"]
    if kind == "timeout":
        return usb.core.USBTimeoutError(text or "Operation timed out", backend_code, code or errno.ETIMEDOUT)
    if kind == "not_implemented":
        return NotImplementedError(text)
    if kind == "index":
        return IndexError(text)
    if kind == "bad_request":
        return usb.core.USBError(f"USB socket {path}: the server refused {op}: {text}", errno=errno.EPROTO)
    return usb.core.USBError(text, backend_code, code)
