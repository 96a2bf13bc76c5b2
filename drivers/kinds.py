"""Devices by kind: ``[devices.NAME] kind = "..."`` picks the driver and its settings.

Each kind names its driver class (loaded by module name when a table uses
it, so a table without a dice cup never imports pyusb's backend code) and
the JSON Schema of its settings in the config. A new device class is a new
module and one entry here; the table does not change (DESIGN.md, "Devices
by kind").
"""

from __future__ import annotations

import importlib
import queue
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from drivers.base import DeviceDriver

SERIAL_SETTINGS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "kind": {"type": "string"},
        "url": {"type": "string", "minLength": 1},
        "baudrate": {"type": "integer", "minimum": 300, "maximum": 4_000_000},
        "heartbeat_timeout": {"type": "number", "exclusiveMinimum": 0, "maximum": 60},
    },
    "required": ["kind", "url"],
    "additionalProperties": False,
}
"""A device on a serial line: a port, a ``/dev/serial/by-id`` path, a pty, ``socket://`` or ``hwsim://``."""


def _serial(module: str, cls: str) -> Callable[[str, Mapping[str, Any], queue.Queue], DeviceDriver]:
    def open_driver(name: str, settings: Mapping[str, Any], inbox: queue.Queue) -> DeviceDriver:
        driver = getattr(importlib.import_module(module), cls)
        return driver(name, settings["url"], inbox, baudrate=settings.get("baudrate", 115200),
                      heartbeat_timeout=settings.get("heartbeat_timeout", 3.0))
    return open_driver


DICE_CUP_SETTINGS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "kind": {"type": "string"},
        "vendor_id": {"type": "integer", "minimum": 0, "maximum": 0xFFFF,
                      "x-why": "must be the cup's USB vendor id, 0 to 0xffff (in TOML: 0x1209)"},
        "product_id": {"type": "integer", "minimum": 0, "maximum": 0xFFFF,
                       "x-why": "must be the cup's USB product id, 0 to 0xffff (in TOML: 0xd1ce)"},
        "serial": {"type": "string", "minLength": 1, "maxLength": 126},
        "dice": {"type": "integer", "minimum": 1, "maximum": 8,
                 "x-why": "must be the number of dice in the cup, 1 to 8 (a report carries at most 8)"},
        "backend": {"type": "string", "minLength": 1, "maxLength": 112,
                    "pattern": r"^(libusb1|libusb0|openusb|hwsim://\S+|unix:/\S+)$",
                    "x-why": "must be libusb1 (the default), libusb0, openusb, unix:/PATH (a device served on a "
                             "Unix socket, as tablectl sim serves its cup; at most 107 bytes of path), or a "
                             "simulator's hwsim://NAME"},
        "read_timeout": {"type": "number", "exclusiveMinimum": 0, "maximum": 10},
        "control_timeout": {"type": "number", "exclusiveMinimum": 0, "maximum": 10},
        "reconnect_max": {"type": "number", "exclusiveMinimum": 0, "maximum": 60},
    },
    "required": ["kind", "vendor_id", "product_id"],
    "additionalProperties": False,
}
"""A USB dice cup (pyusb): found by vendor and product id, and by serial among several cups."""


def _dice_cup(name: str, settings: Mapping[str, Any], inbox: queue.Queue) -> DeviceDriver:
    from drivers.dice_cup import DiceCupDriver  # pyusb only for a table with a cup

    keys = ("serial", "dice", "backend", "read_timeout", "control_timeout", "reconnect_max")
    return DiceCupDriver(name, inbox, vendor_id=settings["vendor_id"], product_id=settings["product_id"],
                         **{k: settings[k] for k in keys if k in settings})


@dataclass(frozen=True)
class Kind:
    name: str
    summary: str
    settings: Mapping[str, Any]
    """JSON Schema of ``[devices.NAME]`` for this kind."""
    open: Callable[[str, Mapping[str, Any], queue.Queue], DeviceDriver]


KINDS: dict[str, Kind] = {
    "card_shoe": Kind("card_shoe", "card-reading dealing shoe (serial)", SERIAL_SETTINGS,
                      _serial("drivers.shoe", "ShoeDriver")),
    "shuffler": Kind("shuffler", "automatic shuffler with deck check (serial)", SERIAL_SETTINGS,
                     _serial("drivers.shuffler", "ShufflerDriver")),
    "hand_shuffler": Kind("hand_shuffler", "hand-forming shuffler: deck check, shuffle, whole hands (serial)",
                          SERIAL_SETTINGS, _serial("drivers.hand_shuffler", "HandShufflerDriver")),
    "dice_cup": Kind("dice_cup", "dice cup: shaken, opened with the dice values, closed, faults (USB, pyusb)",
                     DICE_CUP_SETTINGS, _dice_cup),
}


def open_driver(name: str, kind: str, settings: Mapping[str, Any], inbox: queue.Queue) -> DeviceDriver:
    """The driver of ``kind`` for the device ``name``; :class:`KeyError` naming the kinds otherwise."""
    try:
        entry = KINDS[kind]
    except KeyError:
        raise KeyError(f"no device kind {kind!r}: the kinds are {', '.join(KINDS)}") from None
    return entry.open(name, settings, inbox)
