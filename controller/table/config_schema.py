"""The JSON Schema (Draft 2020-12) of a table's TOML config.

Kept as Python so that its defaults and the dataclasses of
:mod:`controller.table.config` sit side by side; the schema rejects unknown keys
everywhere (``additionalProperties: false``), because a misspelt key that is
silently ignored leaves a table running on a default nobody chose.

Cross-field rules that a schema says badly (a seat beyond ``table.seats``,
one GPIO pin used twice, password and password_file both given) and what
depends on the game (its ``[game]`` options, device roles, buttons and light
groups, all from :mod:`games.registry`) are checked in :mod:`controller.table.config`
after this schema passes: no game is named here.
"""

from __future__ import annotations

from typing import Any

MAX_SEATS = 14
"""The largest table of the rule sheets: Three Card Poker on a baccarat
table, 13 players and the player-dealer (california-card-room-games)."""

_SEAT_KEY = {"pattern": "^(?:[1-9]|1[0-4])$", "x-why": f"must be a seat number 1-{MAX_SEATS}"}
_PIN = {"type": "integer", "minimum": 0, "maximum": 27,
        "x-why": "must be a BCM GPIO number 0-27"}


def _section(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required),
            "additionalProperties": False}


def _pins_by(names: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "propertyNames": names, "additionalProperties": _PIN}


_NAME = {"pattern": "^[a-z][a-z0-9_]*$", "x-why": "must be a lower-case name such as \"deal\" or \"shoe\""}

_DEVICE = {"type": "object", "properties": {"kind": {"type": "string", "minLength": 1}}, "required": ["kind"],
           "x-why": "must be a table with kind = \"...\" and the kind's settings"}
"""Each device names its kind; the kind's own schema (drivers.kinds) checks the rest."""

CONFIG_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "tablectl table config",
    **_section({
        "table": _section({
            "id": {"type": "string", "pattern": "^[A-Za-z0-9_-]+$", "minLength": 1, "maxLength": 64},
            "game": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
            "seats": {"type": "integer", "minimum": 1, "maximum": MAX_SEATS},
            "autostart": {"type": "boolean"},
        }, required=("id", "game")),
        "game": {"type": "object"},
        "mqtt": _section({
            "host": {"type": "string", "minLength": 1},
            "port": {"type": "integer", "minimum": 1, "maximum": 65535},
            "prefix": {"type": "string", "pattern": "^[^/+#\\s]+(?:/[^/+#\\s]+)*$",
                       "x-why": "must be topic levels without wildcards, spaces or empty levels, "
                                "such as \"casino\" or \"site1/floor2\""},
            "username": {"type": "string", "minLength": 1},
            "password": {"type": "string"},
            "password_file": {"type": "string", "minLength": 1},
            "keepalive": {"type": "integer", "minimum": 5, "maximum": 3600},
            "protocol": {"enum": ["3.1.1", "5"]},
            "reconnect_max_delay": {"type": "number", "exclusiveMinimum": 0, "maximum": 300,
                                    "x-why": "seconds between reconnect attempts at most, above 0 and at most 300"},
            "tls": {"type": "boolean"},
            "tls_ca_file": {"type": "string", "minLength": 1},
            "tls_cert_file": {"type": "string", "minLength": 1},
            "tls_key_file": {"type": "string", "minLength": 1},
        }),
        "journal": _section({
            "path": {"type": "string", "minLength": 1},
            "max_undelivered": {"type": "integer", "minimum": 100, "maximum": 10_000_000,
                                "x-why": "events the outbox may hold unacknowledged: 100 to 10000000"},
            "warn_at": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1,
                        "x-why": "a fraction of journal.max_undelivered, above 0 and below 1 (0.8 = at 80 %)"},
        }),
        "devices": {"type": "object", "propertyNames": _NAME, "additionalProperties": _DEVICE},
        "gpio": _section({
            "pin_factory": {"enum": ["default", "mock"]},
            "bounce_time": {"type": "number", "minimum": 0, "maximum": 1,
                            "x-why": "seconds a button must stay still to count (0 turns debouncing off)"},
            "buttons": _pins_by(_NAME),
            "button_leds": _pins_by(_NAME),
            "seat_lights": {"type": "object", "propertyNames": _NAME, "additionalProperties": _pins_by(_SEAT_KEY)},
            "seat_buttons": {"type": "object", "propertyNames": _NAME, "additionalProperties": _pins_by(_SEAT_KEY)},
        }),
        "dealer": _section({"remote_buttons": {"type": "boolean"}}),
    }, required=("table",)),
}
