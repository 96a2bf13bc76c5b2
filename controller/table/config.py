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

import contextlib
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from controller.shared.mqtt_tls import TlsError, tls_context
from controller.shared.schemas import SECRET_KEYS, dotted, explain, problems
from controller.table.config_schema import CONFIG_SCHEMA
from drivers.kinds import KINDS
from games import registry
from games.options import OptionError


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
    """TLS to the broker, which is always verified (controller.shared.mqtt_tls)."""
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
class DeviceSection:
    """One device: its name (the role it fills in the game), its kind (which driver) and the
    kind's settings. The serial settings have fields of their own because the simulator and
    the tests point them elsewhere; anything else a kind takes is in ``settings``."""

    name: str
    kind: str
    url: str | None = None
    baudrate: int = 115200
    heartbeat_timeout: float = 3.0
    settings: dict[str, Any] = field(default_factory=dict)

    def driver_settings(self) -> dict[str, Any]:
        """What the kind's driver is opened with (drivers.kinds.open_driver)."""
        base = {"url": self.url, "baudrate": self.baudrate, "heartbeat_timeout": self.heartbeat_timeout}
        return {**self.settings, **{k: v for k, v in base.items() if v is not None}}


SerialDevice = DeviceSection


@dataclass(frozen=True)
class GpioSection:
    pin_factory: str = "default"
    bounce_time: float = 0.05
    """A bouncing contact on `deal` would settle a round and close the next
    round's bets in one press; 50 ms is well under a dealer's double press."""
    buttons: dict[str, int] = field(default_factory=dict)
    """The dealer's buttons, by the game's button names."""
    button_leds: dict[str, int] = field(default_factory=dict)
    seat_lights: dict[str, dict[int, int]] = field(default_factory=dict)
    """Light group (games.round.contract.LIGHT_GROUPS, as the game declares them) -> seat -> pin."""
    seat_buttons: dict[str, dict[int, int]] = field(default_factory=dict)
    """Players' decision buttons (the game's seat buttons: play, fold ...) -> seat -> pin."""


@dataclass(frozen=True)
class DealerSection:
    remote_buttons: bool = False
    """Accept ``cmd/button`` from MQTT: for a simulated dealer in another process."""


@dataclass(frozen=True)
class Config:
    table: TableSection
    game: dict[str, Any]
    """The ``[game]`` section as written; ``options`` is what the game made of it."""
    mqtt: MqttSection
    journal: JournalSection
    devices: dict[str, DeviceSection]
    gpio: GpioSection | None
    dealer: DealerSection
    source: str = "<config>"
    options: Any = None
    """The game's options model (games.registry.GameEntry.options), checked at load."""


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
    return parse_raw(raw, source)


def parse_raw(raw: dict[str, Any], source: str = "<config>") -> Config:
    """Check a config already read into a dict (a simulated table's, made from the registry)."""
    bad_numbers = _non_finite(raw)
    named = tuple(line.split(": ", 1)[0] + ":" for line in bad_numbers)
    found = bad_numbers + [line for line in problems(_VALIDATOR, raw) if not line.startswith(named)]
    if found:
        raise ConfigError(source, found)
    found = _cross_checks(raw)
    if found:
        raise ConfigError(source, found)
    return _build(raw, source)


_VALIDATOR = Draft202012Validator(CONFIG_SCHEMA)


def _non_finite(value: Any, path: tuple[str | int, ...] = ()) -> list[str]:
    """Every ``nan``, ``inf`` and ``-inf`` anywhere in the config, by its key: TOML has them,
    and JSON Schema's ``minimum``/``maximum`` let ``nan`` through (every comparison with nan is
    false), so ``warn_at = nan`` stopped the table at start and ``heartbeat_timeout = nan``
    stopped the watchdog's pings. One walk covers every number of every section, the game's
    options and each device kind's settings included; no key takes a non-finite number. (A
    secret's key is left to the schema, whose message never quotes it.)"""
    if path and str(path[-1]) in SECRET_KEYS:
        return []
    if isinstance(value, float) and not math.isfinite(value):
        return [f"{dotted(path)}: must be a finite number, not {value!r}"]
    if isinstance(value, dict):
        return [line for key, item in value.items() for line in _non_finite(item, (*path, key))]
    if isinstance(value, list):
        return [line for i, item in enumerate(value) for line in _non_finite(item, (*path, i))]
    return []


def _cross_checks(raw: dict[str, Any]) -> list[str]:
    """Rules between keys, once every key has the right type and range; and everything that
    depends on the game, asked of the game registry: its options, device roles, buttons and lights."""
    out: list[str] = []
    seats = raw["table"].get("seats", TableSection.seats)
    game = raw["table"]["game"]
    try:
        entry = registry.get(game)
    except KeyError as exc:
        return [f"table.game: {exc.args[0]}"]
    out += _game_checks(entry, raw)
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
    out += _gpio_checks(entry, raw.get("gpio", {}), seats)
    return out


def _game_checks(entry: registry.GameEntry, raw: dict[str, Any]) -> list[str]:
    """``[game]`` against the game's options schema, ``[devices]`` against its roles and their kinds."""
    out = [f"game.{line}" if not line.startswith("(top level)") else f"game{line[11:]}"
           for line in problems(Draft202012Validator(entry.options_schema), raw.get("game", {}))]
    devices = raw.get("devices", {})
    roles = entry.roles
    if entry.roles_for is not None and not out:
        # The roles depend on the options; the options' own errors are reported at the build.
        with contextlib.suppress(OptionError):
            roles = entry.roles_with(entry.load_options(raw.get("game", {}), raw["table"].get("seats", 8)))
    for role_name, role in roles.items():
        if role.required and role_name not in devices:
            out.append(f"devices.{role_name}: is required: game {entry.name!r} cannot be dealt without it "
                       f"(kind {' or '.join(role.kinds)})")
    for name, device in devices.items():
        role = roles.get(name)
        if role is None:
            have = ", ".join(roles) or "none"
            out.append(f"devices.{name}: game {entry.name!r} has no device role {name!r} (its roles: {have})")
            continue
        kind = device.get("kind")
        if kind not in role.kinds:
            out.append(f"devices.{name}.kind: must be {' or '.join(repr(k) for k in role.kinds)} for the "
                       f"{name} of {entry.name!r} (got {kind!r})")
            continue
        if kind not in KINDS:
            out.append(f"devices.{name}.kind: no driver for kind {kind!r}; known: {', '.join(KINDS)}")
            continue
        for error in Draft202012Validator(KINDS[kind].settings).iter_errors(device):
            for line in explain(error):
                out.append(f"devices.{name}.{line}" if not line.startswith("(top level)")
                           else f"devices.{name}{line[11:]}")
    return out


def _gpio_checks(entry: registry.GameEntry, gpio: dict[str, Any], seats: int) -> list[str]:
    """Every GPIO name is one the game declares; one pin, one use; no seat beyond the table."""
    out: list[str] = []
    vocab = {"buttons": entry.buttons, "button_leds": entry.buttons,
             "seat_lights": entry.light_groups, "seat_buttons": entry.seat_buttons}
    what = {"buttons": "button", "button_leds": "button", "seat_lights": "light group",
            "seat_buttons": "seat button"}
    for group, names in vocab.items():
        for name in gpio.get(group, {}):
            if name not in names:
                have = ", ".join(names) or "none"
                out.append(f"gpio.{group}.{name}: {entry.name!r} has no {what[group]} {name!r} (its {what[group]}s: "
                           f"{have})")
    users: dict[int, str] = {}
    flat: list[tuple[str, str, int]] = []
    for group in ("buttons", "button_leds"):
        flat += [(f"gpio.{group}.{k}", "", pin) for k, pin in gpio.get(group, {}).items()]
    for group in ("seat_lights", "seat_buttons"):
        for name, by_seat in gpio.get(group, {}).items():
            flat += [(f"gpio.{group}.{name}.{k}", k, pin) for k, pin in by_seat.items()]
    for where, seat, pin in flat:
        if seat and int(seat) > seats:
            out.append(f"{where}: seat {seat} is beyond table.seats = {seats}")
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
        seat_lights={g: {int(k): v for k, v in m.items()} for g, m in gpio_raw.get("seat_lights", {}).items()},
        seat_buttons={b: {int(k): v for k, v in m.items()} for b, m in gpio_raw.get("seat_buttons", {}).items()},
    )
    try:
        options = registry.get(table.game).load_options(raw.get("game", {}), table.seats)
    except OptionError as exc:  # the field is already the config key (table.seats, game.action_wrap)
        raise ConfigError(source, [f"{exc.field}: {exc.why}"]) from None
    journal = raw.get("journal", {})
    return Config(
        table=table,
        game=dict(raw.get("game", {})),
        options=options,
        mqtt=MqttSection(**mqtt_raw),
        journal=JournalSection(Path(journal.get("path", f"var/{table.id}.db")),
                               max_undelivered=journal.get("max_undelivered", JournalSection.max_undelivered),
                               warn_at=journal.get("warn_at", JournalSection.warn_at)),
        devices={name: _device(name, dev) for name, dev in raw.get("devices", {}).items()},
        gpio=gpio,
        dealer=DealerSection(**raw.get("dealer", {})),
        source=source,
    )


def _device(name: str, raw: dict[str, Any]) -> DeviceSection:
    known = {k: raw[k] for k in ("url", "baudrate", "heartbeat_timeout") if k in raw}
    rest = {k: v for k, v in raw.items() if k not in known and k != "kind"}
    return DeviceSection(name, raw["kind"], settings=rest, **known)


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
