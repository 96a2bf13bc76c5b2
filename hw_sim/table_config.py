"""A simulated table's config, from the game registry alone, as a plain dict.

The demo (through ``controller.cli.sim_table_config``, which checks the dict
like any config file), ``tablectl sim --write-config`` (a file for a
``tablectl sim`` and a ``tablectl run`` side by side: a floor writes one per
table) and the benchmark (``hw_sim.bench``, which writes it as TOML for a
``tablectl run`` in another process) build their tables here, so a new game
in the registry is a simulated table at once. Nothing here knows a
controller type (DESIGN.md, import rule): the dict is what a config file
would hold, and :func:`to_toml` writes it as one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from games import registry
from games.decks import DeckSpec
from hw_sim.kinds import on_usb, sim_settings

SIM_PINS = (5, 6, 13, 19, 12, 16, 20, 21, 17, 27, 22, 23, 24, 25, 26, 4, 2, 3, 7, 8, 9, 10, 11, 14, 15, 18, 0, 1)
"""BCM pins the simulated table's mock GPIO hands out, in the order the example baccarat config uses them."""


SIM_FOLDER = "/tmp/tablectl-sim"
"""Where a simulated table's devices appear by default: ``SIM_FOLDER/<table id>/<role>``."""


def sim_table_raw(game: str, options: Mapping[str, Any] | None = None, seats: int | None = None, *,
                  table_id: str | None = None, host: str = "127.0.0.1", port: int = 1883,
                  folder: str | None = None) -> dict[str, Any]:
    """The raw config of a simulated table of ``game``: its device roles with their first kind,
    its buttons and light groups on mock GPIO pins, the demo's seats and options (``options``
    overrides some of them, ``seats`` the number of seats), remote buttons for a dealer in another
    process. Not checked here: the controller checks it (``parse_raw``) as it checks a file.

    ``table_id`` (default ``<game>-sim-01``), the broker's ``host`` and ``port``, and ``folder``,
    where ``tablectl sim`` puts the devices: a serial device's pseudo-terminal at
    ``folder/<role>``, a USB device's socket at ``folder/<role>.sock`` (``backend = "unix:..."``),
    and then the journal too, at ``folder/<table id>.db`` (default: the devices under
    ``/tmp/tablectl-sim/<table id>``, the journal at ``var/<table id>.db``)."""
    entry = registry.get(game)
    pins = iter(SIM_PINS)
    seats = seats if seats is not None else entry.demo.get("seats", entry.seats[1])
    section = {**entry.demo.get("game", {}), **(options or {})}
    gpio: dict[str, Any] = {"pin_factory": "mock", "bounce_time": 0, "buttons": {}, "button_leds": {},
                            "seat_lights": {}, "seat_buttons": {}}
    for name in entry.buttons:
        gpio["buttons"][name] = next(pins)
    for name in entry.buttons:
        gpio["button_leds"][name] = next(pins)
    # Lights first: a seat's lights are what the pit and the players see. Seat buttons take the
    # pins left; those that find none are pressed as a table with them on an I/O expander would
    # report them (controller.table.app.mock_press): the 28 BCM pins do not hold, say, five seat
    # buttons and four light groups for three seats.
    for group in entry.light_groups:
        gpio["seat_lights"][group] = {str(s): next(pins) for s in range(1, seats + 1)}
    for name in entry.seat_buttons:
        wired = {str(s): pin for s, pin in zip(range(1, seats + 1), pins, strict=False)}
        if wired:
            gpio["seat_buttons"][name] = wired
    roles = entry.roles_with(entry.load_options(section, seats))
    table_id = table_id or f"{game.replace('_', '-')}-sim-01"
    devices = folder or f"{SIM_FOLDER}/{table_id}"
    journal = f"{folder}/{table_id}.db" if folder else f"var/{table_id}.db"
    return {"table": {"id": table_id, "game": game, "seats": seats, "autostart": True},
            "game": section,
            "mqtt": {"host": host, "port": port, "prefix": "casino"},
            "journal": {"path": journal},
            "devices": {role: _device(r.kinds[0], devices, role, entry.demo.get("devices", {}).get(role, {}))
                        for role, r in roles.items()},
            "gpio": gpio, "dealer": {"remote_buttons": True}}


def _device(kind: str, folder: str, role: str, demo: Mapping[str, Any]) -> dict[str, Any]:
    """One ``[devices.<role>]``: a serial device's pty path, or a USB device's ids and the socket
    ``tablectl sim`` serves its bus on (the demo's in-process rig puts its ``hwsim://`` bus there
    instead), then what the game's demo sets (a cup's ``dice``)."""
    address = f"unix:{folder}/{role}.sock" if on_usb(kind) else f"{folder}/{role}"
    return {"kind": kind, **sim_settings(kind, address), **demo}


def deck_and_kinds(raw: Mapping[str, Any]) -> tuple[DeckSpec, dict[str, str]]:
    """What a :class:`hw_sim.rig.SimRig` needs of a raw table config: the game's deck spec for
    its ``[game]`` options and seats, and each device's kind by its name (role)."""
    table = raw["table"]
    entry = registry.get(table["game"])
    spec = entry.deck(entry.load_options(raw.get("game", {}), table["seats"]))
    return spec, {name: dev["kind"] for name, dev in raw.get("devices", {}).items()}


_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(key: str) -> str:
    return key if _BARE.match(key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)   # a TOML basic string takes JSON's escapes
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for a {type(value).__name__}")


def to_toml(doc: Mapping[str, Any], prefix: str = "") -> str:
    """A raw table config as a TOML file, for a ``tablectl run`` or ``tablectl sim`` in another
    process (the floor, the benchmark): scalars and arrays (inline tables inside them), and nested
    tables as sections. ``tomllib`` reads back exactly ``doc``."""
    scalars = {k: v for k, v in doc.items() if not isinstance(v, Mapping)}
    tables = {k: v for k, v in doc.items() if isinstance(v, Mapping)}
    out = []
    if prefix and (scalars or not tables):
        out.append(f"[{prefix}]")
    out += [f"{_key(str(k))} = {_value(v)}" for k, v in scalars.items()]
    for key, value in tables.items():
        out.append(to_toml(value, f"{prefix}.{_key(str(key))}" if prefix else _key(str(key))))
    return "\n".join(out) + "\n"
