"""A table's config: TOML, checked against a JSON Schema, returned as dataclasses.

Every problem is reported at once, one line each, as
``<file>: <key path>: <why>`` (``config/baccarat.toml: table.id: must match
^[A-Za-z0-9_-]+$ (got "bad id!")``), because a technician at a table fixes
a config in one go only if they see every mistake in it.

Relative paths (``journal.path``, ``mqtt.password_file``, ``mqtt.tls_*_file``) are relative to
the working directory of the process, which systemd sets with
``WorkingDirectory=``; the example config keeps its journal under ``var/``.

The broker password never appears in a repr, a log line or an error message
(DESIGN.md, "What must never leave the controller").
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from controller.config_schema import CONFIG_SCHEMA, GAME_DEVICES
from controller.mqtt_tls import TlsError, tls_context
from controller.schemas import problems


class ConfigError(ValueError):
    """A config that cannot run a table; ``problems`` are ``key: why`` lines."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        super().__init__("\n".join(f"{source}: {p}" for p in problems))


@dataclass(frozen=True)
class TableSection:
    id: str
    game: str
    seats: int = 8
    autostart: bool = False
    """Open the table (start the deck check) as soon as the controller starts."""


@dataclass(frozen=True)
class GameSection:
    """Options of the game's round machine; see the game's module docstring."""

    action_wrap: str = "around_table"
    first_player_dealer_seat: int = 1


@dataclass(frozen=True)
class MqttSection:
    host: str = "127.0.0.1"
    port: int = 1883
    prefix: str = "casino"
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    keepalive: int = 30
    protocol: str = "3.1.1"
    reconnect_max_delay: float = 5.0
    """Seconds between reconnect attempts at most (paho doubles from 1 s up to
    this): also the longest a backlog waits after the broker is back."""
    tls: bool = False
    """TLS to the broker, which is always verified (controller.mqtt_tls)."""
    tls_ca_file: str | None = None
    """The CA the broker's certificate must chain to; without it, the system's CAs."""
    tls_cert_file: str | None = None
    """A client certificate, for a broker that asks for one (with ``tls_key_file``)."""
    tls_key_file: str | None = None


@dataclass(frozen=True)
class JournalSection:
    path: Path
    max_undelivered: int = 100_000
    """The outbox cap: at this many events not yet acknowledged by the broker
    the table finishes the round in progress and deals no new one (it never
    drops an event); see docs/internals.md, "Store and forward"."""
    warn_at: float = 0.8
    """Fraction of ``max_undelivered`` at which the ``outbox_filling`` alarm is raised."""


@dataclass(frozen=True)
class SerialDevice:
    """A device on a serial line: a port, a by-id path, a pty or ``socket://``."""

    name: str
    url: str
    baudrate: int = 115200
    heartbeat_timeout: float = 3.0


@dataclass(frozen=True)
class GpioSection:
    pin_factory: str = "default"
    bounce_time: float = 0.05
    """A bouncing contact on `deal` would settle a round and close the next
    round's bets in one press; 50 ms is well under a dealer's double press."""
    buttons: dict[str, int] = field(default_factory=dict)
    button_leds: dict[str, int] = field(default_factory=dict)
    action_lights: dict[int, int] = field(default_factory=dict)
    player_dealer_lights: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class DealerSection:
    remote_buttons: bool = False
    """Accept ``cmd/button`` from MQTT: for a simulated dealer in another process."""


@dataclass(frozen=True)
class Config:
    table: TableSection
    game: GameSection
    mqtt: MqttSection
    journal: JournalSection
    devices: dict[str, SerialDevice]
    gpio: GpioSection | None
    dealer: DealerSection
    source: str = "<config>"


def load_config(path: str | Path) -> Config:
    """Read and check a TOML config file; raise :class:`ConfigError`."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(source, [f"cannot read: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(source, [f"not UTF-8 text: {exc.reason} at byte {exc.start}"]) from None
    return parse_config(text, source)


def parse_config(text: str, source: str = "<config>") -> Config:
    """Check TOML text; ``source`` names it in errors."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # its message carries "(at line L, column C)"
        raise ConfigError(source, [f"TOML syntax error: {exc}"]) from None
    found = problems(_VALIDATOR, raw)
    if found:
        raise ConfigError(source, found)
    found = _cross_checks(raw)
    if found:
        raise ConfigError(source, found)
    return _build(raw, source)


_VALIDATOR = Draft202012Validator(CONFIG_SCHEMA)


def _cross_checks(raw: dict[str, Any]) -> list[str]:
    """Rules between keys, once every key has the right type and range."""
    out: list[str] = []
    seats = raw["table"].get("seats", TableSection.seats)
    game = raw["table"]["game"]
    first = raw.get("game", {}).get("first_player_dealer_seat")
    if first is not None and first > seats:
        out.append(f"game.first_player_dealer_seat: seat {first} is beyond table.seats = {seats}")
    for device in GAME_DEVICES.get(game, ()):
        if device not in raw.get("devices", {}):
            out.append(f"devices.{device}: is required: game {game!r} cannot be dealt without it")
    mqtt = raw.get("mqtt", {})
    if "password" in mqtt and "password_file" in mqtt:
        out.append("mqtt.password: give password or password_file, not both")
    for key in ("tls_ca_file", "tls_cert_file", "tls_key_file"):
        if key in mqtt and not mqtt.get("tls", False):
            out.append(f"mqtt.{key}: TLS is off; set mqtt.tls = true to use it")
    if ("tls_cert_file" in mqtt) != ("tls_key_file" in mqtt):
        given, missing = ("tls_cert_file", "tls_key_file") if "tls_cert_file" in mqtt else \
            ("tls_key_file", "tls_cert_file")
        out.append(f"mqtt.{missing}: is required with mqtt.{given} (a client certificate and its key)")
    gpio = raw.get("gpio", {})
    users: dict[int, str] = {}
    for group in ("buttons", "button_leds", "action_lights", "player_dealer_lights"):
        for key, pin in gpio.get(group, {}).items():
            where = f"gpio.{group}.{key}"
            if group.endswith("_lights") and int(key) > seats:
                out.append(f"{where}: seat {key} is beyond table.seats = {seats}")
            if pin in users:
                out.append(f"{where}: pin {pin} is already used by {users[pin]}")
            else:
                users[pin] = where
    return out


def _build(raw: dict[str, Any], source: str) -> Config:
    table = TableSection(**raw["table"])
    mqtt_raw = dict(raw.get("mqtt", {}))
    password_file = mqtt_raw.pop("password_file", None)
    if password_file is not None:
        mqtt_raw["password"] = _read_secret(source, password_file)
    if mqtt_raw.get("tls"):
        try:  # built here only to check the files; the publisher builds its own
            tls_context(mqtt_raw.get("tls_ca_file"), mqtt_raw.get("tls_cert_file"), mqtt_raw.get("tls_key_file"))
        except TlsError as exc:
            raise ConfigError(source, [str(exc)]) from None
    gpio_raw = raw.get("gpio")
    gpio = None if gpio_raw is None else GpioSection(
        pin_factory=gpio_raw.get("pin_factory", "default"),
        bounce_time=gpio_raw.get("bounce_time", GpioSection.bounce_time),
        buttons=dict(gpio_raw.get("buttons", {})),
        button_leds=dict(gpio_raw.get("button_leds", {})),
        action_lights={int(k): v for k, v in gpio_raw.get("action_lights", {}).items()},
        player_dealer_lights={int(k): v for k, v in gpio_raw.get("player_dealer_lights", {}).items()},
    )
    journal = raw.get("journal", {})
    return Config(
        table=table,
        game=GameSection(**raw.get("game", {})),
        mqtt=MqttSection(**mqtt_raw),
        journal=JournalSection(Path(journal.get("path", f"var/{table.id}.db")),
                               max_undelivered=journal.get("max_undelivered", JournalSection.max_undelivered),
                               warn_at=journal.get("warn_at", JournalSection.warn_at)),
        devices={name: SerialDevice(name, **dev) for name, dev in raw.get("devices", {}).items()},
        gpio=gpio,
        dealer=DealerSection(**raw.get("dealer", {})),
        source=source,
    )


def _read_secret(source: str, path: str) -> str:
    """The first line of a password file; the error names the file, never its content."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(source, [f"mqtt.password_file: cannot read {path}: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError:
        raise ConfigError(source, [f"mqtt.password_file: {path} is not UTF-8 text"]) from None
    secret = text.splitlines()[0] if text else ""
    if not secret:
        raise ConfigError(source, [f"mqtt.password_file: {path} is empty"])
    return secret
