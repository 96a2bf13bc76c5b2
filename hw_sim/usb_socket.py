"""The simulator's USB devices served on a Unix socket, for a controller in another process.

``tablectl sim`` runs the simulated cup in its own process, on a :class:`hw_sim.usb_backend.SimUsbBus`
(a pyusb ``IBackend``); the controller (``tablectl run``) is another process, whose dice cup
driver names ``backend = "unix:/PATH"``. :class:`UsbSocketServer` listens at that path and carries
out each request of :class:`drivers.usb_socket.UnixSocketBackend` on the bus, so the driver's real
pyusb code reaches the simulated cup as it reaches a real one through libusb. The wire is
drivers.usb_socket's (docs/protocols.md, "USB over a Unix socket"); the server serves any
``IBackend``, it knows nothing of cups.

- Each connection is a session, as a process is to libusb: the handles it opened are its own, and
  when it ends (the controller stopped or died) they are closed, so a claimed interface is
  released as the kernel releases it when a process exits.
- Reads and writes run on a thread per endpoint of a handle (a read that waits for the cup's
  next report must not hold up a control request); everything else is answered in order.
- A request this protocol does not allow (a message that is no JSON object, an unknown op, a
  missing or ill-typed argument, a handle or device the session was never given) is answered with
  a ``bad_request`` error naming what is wrong; a message that breaks the framing (its length)
  ends the session after that answer, since nothing after it can be trusted.
- :meth:`UsbSocketServer.stop` ends every session: the controller's calls fail as an unplugged
  device's do, and it looks for the cup again until a simulator serves the path once more.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import logging
import os
import queue
import select
import socket
import stat
import threading
from array import array
from collections.abc import Callable
from typing import Any

import usb.core

from drivers.usb_socket import (
    CONFIGURATION_FIELDS,
    DEVICE_FIELDS,
    ENDPOINT_FIELDS,
    INTERFACE_FIELDS,
    MAX_TRANSFER,
    OPS,
    MessageError,
    encode_message,
    read_message,
    socket_path,
)

log = logging.getLogger(__name__)

LANE_OPS = frozenset({"bulk_read", "intr_read", "bulk_write", "intr_write"})
"""Requests that may wait on their endpoint: each endpoint of a handle gets a thread of its own."""


class UsbSocketError(RuntimeError):
    """The socket cannot be served (its path is too long, another simulator serves it, it is not
    a socket); the message names the path and what to do."""


class _Bad(Exception):
    """A request this protocol does not allow; the text says what is wrong with it."""


def check_path(path: str) -> None:
    """Refuse a path that cannot be served before anything starts: too long for a Unix socket,
    something else there, or another simulator serving it. A socket nobody serves (a simulator
    that was killed) is stale: :meth:`UsbSocketServer.start` replaces it."""
    try:
        socket_path(f"unix:{path}")
    except ValueError as exc:
        raise UsbSocketError(str(exc)) from None
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise UsbSocketError(f"USB socket {path}: something that is not a socket is there; not replacing it")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(path)
    except OSError:
        return   # stale: nobody listens
    finally:
        probe.close()
    raise UsbSocketError(f"USB socket {path}: another process serves it (a tablectl sim of this table still "
                         "running?); stop it, or give this table another path")


class UsbSocketServer:
    """Serves ``backend`` (a pyusb ``IBackend``: the simulated bus) on the Unix socket at ``path``."""

    def __init__(self, backend: Any, path: str) -> None:
        self.backend = backend
        self.path = path
        self.sessions: list[_Session] = []
        self.served = 0
        """Sessions served so far (the tests count reconnections with it)."""
        self._devices: dict[int, Any] = {}
        self._device_ids: dict[int, int] = {}
        self._next_device = itertools.count(1)
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._wake_r, self._wake_w = socket.socketpair()
        self._thread: threading.Thread | None = None
        self._stopped = False

    @property
    def url(self) -> str:
        """The backend name a controller's config gives: ``unix:/PATH``."""
        return f"unix:{self.path}"

    def start(self) -> UsbSocketServer:
        check_path(self.path)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)   # stale (check_path found nobody serving it)
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(self.path)
            listener.listen(8)
        except OSError as exc:
            listener.close()
            raise UsbSocketError(f"USB socket {self.path}: cannot listen there: {exc.strerror or exc}") from None
        self._listener = listener
        self._thread = threading.Thread(target=self._accept, name=f"usb-socket-server-{self.path}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Close the socket and end every session (the controller sees the device go). Idempotent."""
        if self._stopped:
            return
        self._stopped = True
        self._wake_w.send(b"x")
        if self._thread is not None:
            self._thread.join(5)
        with self._lock:
            sessions = list(self.sessions)
        for session in sessions:
            session.end()
        if self._listener is not None:
            self._listener.close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            self._listener = None
        self._wake_r.close()
        self._wake_w.close()

    def _accept(self) -> None:
        assert self._listener is not None
        while True:
            ready, _, _ = select.select([self._listener, self._wake_r], [], [])
            if self._wake_r in ready:
                return
            try:
                conn, _ = self._listener.accept()
            except OSError:
                continue
            session = _Session(self, conn)
            with self._lock:
                self.sessions.append(session)
                self.served += 1
            session.start()

    def _forget(self, session: _Session) -> None:
        with self._lock:
            if session in self.sessions:
                self.sessions.remove(session)

    # --- devices by id -------------------------------------------------------------------------
    def device_id(self, dev: Any) -> int:
        """A device's id, the same for the same device object in every session."""
        with self._lock:
            found = self._device_ids.get(id(dev))
            if found is None:
                found = next(self._next_device)
                self._device_ids[id(dev)] = found
                self._devices[found] = dev   # kept, so its id() is never reused
            return found

    def device(self, number: int) -> Any:
        with self._lock:
            dev = self._devices.get(number)
        if dev is None:
            raise _Bad(f"no device {number} was enumerated on this server")
        return dev


class _Session:
    """One connection: its requests, its handles, and a thread per endpoint for its transfers."""

    def __init__(self, server: UsbSocketServer, sock: socket.socket) -> None:
        self.server = server
        self.backend = server.backend
        self.sock = sock
        self.handles: dict[int, Any] = {}
        self._next_handle = itertools.count(1)
        self._lanes: dict[tuple[int, int], queue.Queue] = {}
        self._lock = threading.Lock()
        self._write = threading.Lock()
        self._ended = False

    def start(self) -> None:
        threading.Thread(target=self._run, name="usb-socket-session", daemon=True).start()

    def _run(self) -> None:
        stream = self.sock.makefile("rb")
        try:
            while True:
                try:
                    message = read_message(stream)
                except MessageError as exc:
                    self._reply(None, error=_error("bad_request", f"the server got {exc}; closing"))
                    break
                if message is None:
                    break
                self._dispatch(message)
        except OSError:
            pass
        finally:
            self.end()

    def end(self) -> None:
        """Close the session's handles (releasing what they claimed) and the connection."""
        with self._lock:
            if self._ended:
                return
            self._ended = True
            handles, self.handles = list(self.handles.values()), {}
            lanes, self._lanes = list(self._lanes.values()), {}
        for lane in lanes:
            lane.put(None)
        for handle in handles:
            try:
                self.backend.close_device(handle)
            except Exception:
                log.debug("closing a handle of a session that ended failed", exc_info=True)
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self.server._forget(self)

    def _reply(self, rid: int | None, *, result: dict[str, Any] | None = None,
               error: dict[str, Any] | None = None) -> None:
        message = {"id": rid, "error": error} if error is not None else {"id": rid, "result": result or {}}
        try:
            data = encode_message(message)
        except MessageError as exc:   # a device answered more than a message holds
            data = encode_message({"id": rid, "error": _error("usb", f"the answer is too long to send: {exc}",
                                                             errno.EOVERFLOW)})
        with self._write, contextlib.suppress(OSError):
            self.sock.sendall(data)

    # --- requests -------------------------------------------------------------------------------
    def _dispatch(self, message: dict[str, Any]) -> None:
        rid = message.get("id")
        if not isinstance(rid, int) or isinstance(rid, bool) or rid < 1:
            self._reply(None, error=_error("bad_request", "a request needs an id, a positive integer"))
            return
        op = message.get("op")
        if op not in OPS:
            self._reply(rid, error=_error("bad_request", f"unknown op {str(op)[:40]!r}; the ops are "
                                                         f"{', '.join(OPS)}"))
            return
        try:
            args = _arguments(op, message)
        except _Bad as exc:
            self._reply(rid, error=_error("bad_request", f"{op}: {exc}"))
            return
        if op in LANE_OPS:
            self._lane(args["handle"], args["ep"]).put((rid, op, args))
        else:
            self._carry_out(rid, op, args)

    def _lane(self, handle: int, ep: int) -> queue.Queue:
        with self._lock:
            lane = self._lanes.get((handle, ep))
            if lane is None:
                lane = self._lanes[(handle, ep)] = queue.Queue()
                threading.Thread(target=self._serve_lane, args=(lane,), daemon=True,
                                 name=f"usb-socket-ep{ep:02x}").start()
        return lane

    def _serve_lane(self, lane: queue.Queue) -> None:
        while (item := lane.get()) is not None:
            self._carry_out(*item)

    def _carry_out(self, rid: int, op: str, args: dict[str, Any]) -> None:
        try:
            result = getattr(self, f"_op_{op}")(**args)
        except _Bad as exc:
            self._reply(rid, error=_error("bad_request", f"{op}: {exc}"))
        except usb.core.USBTimeoutError as exc:
            self._reply(rid, error=_error("timeout", exc.strerror or "Operation timed out", exc.errno,
                                          exc.backend_error_code))
        except usb.core.USBError as exc:
            self._reply(rid, error=_error("usb", exc.strerror or str(exc), exc.errno, exc.backend_error_code))
        except NotImplementedError as exc:
            self._reply(rid, error=_error("not_implemented", str(exc) or f"{op} is not implemented"))
        except IndexError as exc:
            self._reply(rid, error=_error("index", str(exc)))
        except Exception as exc:   # the device model failed: an I/O error to the host, the cause in our log
            log.exception("USB socket %s: %s failed", self.server.path, op)
            self._reply(rid, error=_error("usb", f"{type(exc).__name__} in the device", errno.EIO))
        else:
            self._reply(rid, result=result)

    def _handle(self, number: int) -> Any:
        with self._lock:
            handle = self.handles.get(number)
        if handle is None:
            raise _Bad(f"no handle {number} is open in this connection")
        return handle

    def _descriptor(self, desc: Any, names: tuple[str, ...]) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        for name in names:
            value = getattr(desc, name, None)
            if isinstance(value, (array, bytes, bytearray, tuple, list)):
                value = [int(v) for v in value]
            elif value is not None:
                value = int(value)
            fields[name] = value
        return {"fields": fields}

    def _op_enumerate(self) -> dict[str, Any]:
        return {"devices": [self.server.device_id(d) for d in self.backend.enumerate_devices()]}

    def _op_device_descriptor(self, dev: int) -> dict[str, Any]:
        return self._descriptor(self.backend.get_device_descriptor(self.server.device(dev)), DEVICE_FIELDS)

    def _op_configuration_descriptor(self, dev: int, config: int) -> dict[str, Any]:
        desc = self.backend.get_configuration_descriptor(self.server.device(dev), config)
        return self._descriptor(desc, CONFIGURATION_FIELDS)

    def _op_interface_descriptor(self, dev: int, intf: int, alt: int, config: int) -> dict[str, Any]:
        desc = self.backend.get_interface_descriptor(self.server.device(dev), intf, alt, config)
        return self._descriptor(desc, INTERFACE_FIELDS)

    def _op_endpoint_descriptor(self, dev: int, ep: int, intf: int, alt: int, config: int) -> dict[str, Any]:
        desc = self.backend.get_endpoint_descriptor(self.server.device(dev), ep, intf, alt, config)
        return self._descriptor(desc, ENDPOINT_FIELDS)

    def _op_open(self, dev: int) -> dict[str, Any]:
        handle = self.backend.open_device(self.server.device(dev))
        with self._lock:
            number = next(self._next_handle)
            self.handles[number] = handle
        return {"handle": number}

    def _op_close(self, handle: int) -> dict[str, Any]:
        found = self._handle(handle)
        with self._lock:
            self.handles.pop(handle, None)
        self.backend.close_device(found)
        return {}

    def _op_set_configuration(self, handle: int, value: int) -> dict[str, Any]:
        self.backend.set_configuration(self._handle(handle), value)
        return {}

    def _op_get_configuration(self, handle: int) -> dict[str, Any]:
        return {"value": int(self.backend.get_configuration(self._handle(handle)))}

    def _op_set_interface_altsetting(self, handle: int, intf: int, alt: int) -> dict[str, Any]:
        self.backend.set_interface_altsetting(self._handle(handle), intf, alt)
        return {}

    def _op_claim_interface(self, handle: int, intf: int) -> dict[str, Any]:
        self.backend.claim_interface(self._handle(handle), intf)
        return {}

    def _op_release_interface(self, handle: int, intf: int) -> dict[str, Any]:
        self.backend.release_interface(self._handle(handle), intf)
        return {}

    def _op_is_kernel_driver_active(self, handle: int, intf: int) -> dict[str, Any]:
        return {"value": bool(self.backend.is_kernel_driver_active(self._handle(handle), intf))}

    def _op_detach_kernel_driver(self, handle: int, intf: int) -> dict[str, Any]:
        self.backend.detach_kernel_driver(self._handle(handle), intf)
        return {}

    def _op_attach_kernel_driver(self, handle: int, intf: int) -> dict[str, Any]:
        self.backend.attach_kernel_driver(self._handle(handle), intf)
        return {}

    def _op_reset_device(self, handle: int) -> dict[str, Any]:
        self.backend.reset_device(self._handle(handle))
        return {}

    def _op_clear_halt(self, handle: int, ep: int) -> dict[str, Any]:
        self.backend.clear_halt(self._handle(handle), ep)
        return {}

    def _read(self, fn: Callable[..., int], handle: int, ep: int, intf: int, size: int, timeout: int) -> dict[str, Any]:
        buff = array("B", bytes(size))
        n = fn(self._handle(handle), ep, intf, buff, timeout)
        return {"data": buff[:n].tobytes().hex()}

    def _op_bulk_read(self, **args: Any) -> dict[str, Any]:
        return self._read(self.backend.bulk_read, **args)

    def _op_intr_read(self, **args: Any) -> dict[str, Any]:
        return self._read(self.backend.intr_read, **args)

    def _op_bulk_write(self, handle: int, ep: int, intf: int, data: bytes, timeout: int) -> dict[str, Any]:
        return {"count": int(self.backend.bulk_write(self._handle(handle), ep, intf, array("B", data), timeout))}

    def _op_intr_write(self, handle: int, ep: int, intf: int, data: bytes, timeout: int) -> dict[str, Any]:
        return {"count": int(self.backend.intr_write(self._handle(handle), ep, intf, array("B", data), timeout))}

    def _op_ctrl_transfer(self, handle: int, request_type: int, request: int, value: int, index: int,
                          data: bytes | None, size: int | None, timeout: int) -> dict[str, Any]:
        dev = self._handle(handle)
        if request_type & 0x80:
            buff = array("B", bytes(size or 0))
            n = self.backend.ctrl_transfer(dev, request_type, request, value, index, buff, timeout)
            return {"data": buff[:n].tobytes().hex()}
        n = self.backend.ctrl_transfer(dev, request_type, request, value, index, array("B", data or b""), timeout)
        return {"count": int(n)}


_LIMITS: dict[str, tuple[int, int]] = {
    "ep": (0, 0xFF), "intf": (0, 0xFF), "alt": (0, 0xFF), "config": (0, 0xFF), "value": (0, 0xFFFF),
    "request_type": (0, 0xFF), "request": (0, 0xFF), "index": (0, 0xFFFF), "size": (0, MAX_TRANSFER),
    "timeout": (0, 3_600_000), "dev": (1, 2**31), "handle": (1, 2**31),
}


def _arguments(op: str, message: dict[str, Any]) -> dict[str, Any]:
    """The request's arguments, checked: each an integer in its range, ``data`` hex."""
    args: dict[str, Any] = {}
    control_in = op == "ctrl_transfer" and isinstance(message.get("request_type"), int) and message["request_type"] & 0x80
    for name in OPS[op]:
        value = message.get(name)
        if name == "data":
            if op == "ctrl_transfer" and control_in:
                args[name] = None
                continue
            if not isinstance(value, str):
                raise _Bad("'data' must be a hex string")
            try:
                args[name] = bytes.fromhex(value)
            except ValueError:
                raise _Bad("'data' must be a hex string") from None
            if len(args[name]) > MAX_TRANSFER:
                raise _Bad(f"'data' holds {len(args[name])} bytes: at most {MAX_TRANSFER}")
            continue
        if name == "size" and op == "ctrl_transfer" and not control_in:
            args[name] = None
            continue
        low, high = _LIMITS[name]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise _Bad(f"{name!r} must be an integer {low}..{high}")
        args[name] = value
    return args


def _error(kind: str, text: str, code: int | None = None, backend_code: int | None = None) -> dict[str, Any]:
    return {"kind": kind, "errno": code, "code": backend_code, "text": text}
