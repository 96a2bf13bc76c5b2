"""Which pyusb backend a USB device is looked for through, by the name its config gives.

pyusb finds devices through a backend object (``usb.core.find(backend=...)``): libusb 1.0 on a
Pi, or any :class:`usb.backend.IBackend`. A device's config names one: ``libusb1`` (the
default), ``libusb0`` or ``openusb`` are pyusb's own; ``unix:/PATH`` is the devices another
process serves on a Unix socket (:mod:`drivers.usb_socket`: ``tablectl sim`` serves its cup there
for a ``tablectl run`` beside it); any other name is a backend registered in this process. The
simulator registers its bus as ``hwsim://NAME`` (hw_sim.usb_backend), as it registers
``hwsim://`` with pyserial for the serial lines, so the driver runs its real pyusb calls against
the simulated cup without importing the simulator (DESIGN.md, import rule).
"""

from __future__ import annotations

import importlib
import threading
from typing import Any

LIBRARY_BACKENDS: tuple[str, ...] = ("libusb1", "libusb0", "openusb")
"""pyusb's own backends, each over a C library found at run time."""

_registered: dict[str, Any] = {}
_sockets: dict[str, Any] = {}
"""One :class:`drivers.usb_socket.UnixSocketBackend` per socket path: its connection is reused."""
_lock = threading.Lock()


class UsbBackendError(LookupError):
    """No backend of that name can be had in this process; the message says why and what to do."""


def register(name: str, backend: Any) -> None:
    """Make ``backend`` (an ``IBackend``) findable as ``name`` (e.g. ``hwsim://cups-1``)."""
    if name in LIBRARY_BACKENDS:
        raise ValueError(f"{name!r} is pyusb's own backend: register another name")
    with _lock:
        _registered[name] = backend


def unregister(name: str) -> None:
    with _lock:
        _registered.pop(name, None)


def resolve(name: str) -> Any:
    """The backend called ``name``; :class:`UsbBackendError` when there is none."""
    if name in LIBRARY_BACKENDS:
        module = importlib.import_module(f"usb.backend.{name}")
        backend = module.get_backend()
        if backend is None:
            raise UsbBackendError(f"pyusb's {name} backend found no library to drive: install "
                                  f"{'libusb-1.0-0' if name == 'libusb1' else name} (docs/operations.md)")
        return backend
    if name.startswith("unix:"):
        from drivers.usb_socket import UnixSocketBackend, socket_path

        try:
            path = socket_path(name)
        except ValueError as exc:
            raise UsbBackendError(str(exc)) from None
        with _lock:
            backend = _sockets.get(path)
            if backend is None:
                backend = _sockets[path] = UnixSocketBackend(path)
        return backend
    with _lock:
        backend = _registered.get(name)
        known = sorted(_registered)
    if backend is None:
        others = f"; registered in this process: {', '.join(known)}" if known else ""
        raise UsbBackendError(f"no USB backend {name!r}: pyusb's are {', '.join(LIBRARY_BACKENDS)}, or unix:/PATH "
                              f"for a device served on a Unix socket{others} (a hwsim:// backend exists only in "
                              "the process that runs the simulator)")
    return backend
