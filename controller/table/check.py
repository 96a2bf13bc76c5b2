"""`tablectl run --check`: a table's config and the devices it names, checked before it runs.

The config is checked as `tablectl run` checks it (every error at once: controller.table.config).
Then each device: a serial line's port exists and opens (and is closed again at once: nothing is
sent, so a device in use by a running table is not disturbed beyond the open), a dice cup's USB
backend can be had and finds a device with its vendor and product ids (and its serial, when
given). The journal's directory must be writable. Every problem is one line naming the config key;
operations (docs/operations.md) run this after every config change, before a restart.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import serial

from controller.table.config import Config, DeviceSection
from drivers.kinds import KINDS


def problems(cfg: Config) -> list[str]:
    """Every problem of ``cfg``'s devices and journal, one line each; empty when all is well."""
    out: list[str] = []
    for name, dev in cfg.devices.items():
        key = f"devices.{name}"
        if "backend" in KINDS[dev.kind].settings.get("properties", {}):
            out += _usb(key, dev)
        else:
            out += _serial(key, dev)
    journal_dir = Path(cfg.journal.path).parent
    if not journal_dir.exists():
        if not _creatable(journal_dir):
            out.append(f"journal.path: the directory {journal_dir} does not exist and cannot be made")
    elif not os.access(journal_dir, os.W_OK | os.X_OK):
        out.append(f"journal.path: the directory {journal_dir} is not writable by this user")
    return out


def _creatable(directory: Path) -> bool:
    parent = directory
    while not parent.exists():
        parent = parent.parent
    return os.access(parent, os.W_OK | os.X_OK)


def _serial(key: str, dev: DeviceSection) -> list[str]:
    url = dev.url or ""
    if url.startswith("/") and not Path(url).exists():
        return [f"{key}.url: {url} does not exist (is the {dev.name} plugged in? docs/operations.md, udev rules)"]
    try:
        port = serial.serial_for_url(url, baudrate=dev.baudrate, timeout=0, do_not_open=False)
    except (serial.SerialException, OSError, ValueError) as exc:
        return [f"{key}.url: {url} cannot be opened: {_why(exc)}"]
    port.close()
    return []


def _usb(key: str, dev: DeviceSection) -> list[str]:
    import usb.core

    from drivers.usb_backends import UsbBackendError, resolve

    settings: dict[str, Any] = dev.settings
    name = settings.get("backend", "libusb1")
    try:
        backend = resolve(name)
    except UsbBackendError as exc:
        return [f"{key}.backend: {exc}"]
    found = list(usb.core.find(find_all=True, idVendor=settings["vendor_id"], idProduct=settings["product_id"],
                               backend=backend) or [])
    ids = f"{settings['vendor_id']:04x}:{settings['product_id']:04x}"
    if not found:
        return [f"{key}: no USB device {ids} on backend {name} (is the cup plugged in?)"]
    wanted = settings.get("serial")
    if wanted is not None:
        serials = []
        for device in found:
            try:
                serials.append(device.serial_number)
            except (usb.core.USBError, ValueError, NotImplementedError):
                serials.append(None)
        if wanted not in serials:
            return [f"{key}.serial: no {ids} device with serial {wanted} (found {len(found)} other)"]
    return []


def _why(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc)
    return text.splitlines()[0][:200] if text else type(exc).__name__
