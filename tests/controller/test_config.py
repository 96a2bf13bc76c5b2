"""The table config: the example loads, and every bad input names its key and why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.table.config import ConfigError, load_config, parse_config
from games import registry

ROOT = Path(__file__).resolve().parents[2]

MINIMAL = """
[table]
id = "bac-01"
game = "baccarat"

[devices.shoe]
kind = "card_shoe"
url = "socket://127.0.0.1:7001"

[devices.shuffler]
kind = "shuffler"
url = "socket://127.0.0.1:7002"
"""


def errors(text: str) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, "t.toml")
    assert str(caught.value).splitlines() == [f"t.toml: {p}" for p in caught.value.problems]
    return caught.value.problems


def with_(extra: str, base: str = MINIMAL) -> str:
    return base + "\n" + extra


def test_example_config_loads() -> None:
    config = load_config(ROOT / "config" / "baccarat.toml")
    assert config.table.id == "bac-01" and config.table.game == "baccarat"
    assert config.devices["shoe"].baudrate == 115200
    assert config.gpio is not None
    assert config.gpio.buttons == {"deal": 5, "void": 6, "shuffle_ack": 13, "pass": 19}
    assert config.gpio.seat_lights["action"][8] == 4  # seat keys become ints
    assert set(config.gpio.seat_lights) == {"action", "player_dealer"}
    assert config.devices["shoe"].kind == "card_shoe" and config.devices["shuffler"].kind == "shuffler"
    assert config.dealer.remote_buttons is False


@pytest.mark.parametrize("path", sorted((ROOT / "config").glob("*.toml")), ids=lambda p: p.name)
def test_every_example_config_loads(path: Path) -> None:
    """Each file in config/ is what a table would run: checked as `tablectl run` checks it, and its
    devices are exactly the roles its game needs with those options."""
    config = load_config(path)
    entry = registry.get(config.table.game)
    assert set(config.devices) == set(entry.roles_with(config.options))
    if not path.stem.endswith("-sim"):   # a production example: real hardware, and the pit opens it
        assert config.gpio is not None and config.gpio.pin_factory == "default"
        assert config.table.autostart is False
        assert all(not (dev.url or "").startswith("/tmp") for dev in config.devices.values())


def test_every_game_has_a_production_example() -> None:
    games = {load_config(path).table.game for path in (ROOT / "config").glob("*.toml") if not path.stem.endswith("-sim")}
    assert games == set(registry.PACKAGES), f"without an example: {sorted(set(registry.PACKAGES) - games)}"


def test_defaults_of_a_minimal_config() -> None:
    config = parse_config(MINIMAL)
    assert (config.table.seats, config.table.autostart) == (8, False)
    assert (config.mqtt.host, config.mqtt.port, config.mqtt.prefix) == ("127.0.0.1", 1883, "casino")
    assert config.journal.path == Path("var/bac-01.db")
    assert config.gpio is None
    assert config.game == {} and config.options.action_wrap == "around_table"
    assert config.options.seats == 8 and config.options.spec.size == 416


def test_the_message_names_file_key_rule_and_value() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(MINIMAL.replace('"bac-01"', '"bad id!"'), "config/baccarat.toml")
    assert str(caught.value) == 'config/baccarat.toml: table.id: must match ^[A-Za-z0-9_-]+$ (got "bad id!")'


def test_toml_syntax_error_has_line_and_column() -> None:
    (problem,) = errors("[table]\nid = \"x\"\ngame = baccarat\n")
    assert problem.startswith("TOML syntax error:")
    assert "line 3" in problem and "column" in problem


@pytest.mark.parametrize("extra, expected", [
    ("[mqtt]\nhots = \"x\"", "mqtt.hots: unknown key (allowed: host, keepalive, password, password_file, "
                             "port, prefix, protocol, reconnect_max_delay, tls, tls_ca_file, tls_cert_file, "
                             "tls_key_file, username)"),
    ("[pit]\nx = 1", "pit: unknown key"),
    ("[devices.dice]\nkind = \"card_shoe\"\nurl = \"x\"",
     "devices.dice: game 'baccarat' has no device role 'dice' (its roles: shoe, shuffler)"),
    ("[game]\ncut_card = 16", "game.cut_card: unknown key (allowed: action_wrap, first_player_dealer_seat)"),
])
def test_unknown_keys_are_errors(extra: str, expected: str) -> None:
    (problem,) = errors(with_(extra))
    assert problem.startswith(expected)


@pytest.mark.parametrize("line, expected", [
    ("seats = \"8\"", 'table.seats: must be an integer (got "8")'),
    ("seats = 15", "table.seats: must be at most 14 (got 15)"),
    ("seats = 0", "table.seats: must be at least 1 (got 0)"),
    ("autostart = \"yes\"", 'table.autostart: must be true or false (got "yes")'),
    ("colour = \"green\"", "table.colour: unknown key (allowed: autostart, game, id, seats)"),
])
def test_wrong_types_and_ranges_in_table(line: str, expected: str) -> None:
    assert errors(MINIMAL.replace('game = "baccarat"', 'game = "baccarat"\n' + line)) == [expected]


def test_unknown_game() -> None:
    """The game list comes from the registry (games.registry), not from the config schema."""
    assert errors(MINIMAL.replace('"baccarat"', '"poker"')) == [
        "table.game: no game 'poker': the games are " + ", ".join(registry.names())]


@pytest.mark.parametrize("device, expected", [
    ('[devices.shoe]\nkind = "shuffler"\nurl = "x"',
     "devices.shoe.kind: must be 'card_shoe' for the shoe of 'baccarat' (got 'shuffler')"),
    ('[devices.shoe]\nurl = "x"', 'devices.shoe: must be a table with kind = "..." and the kind\'s settings'),
    ('[devices.shoe]\nkind = "card_shoe"\nurl = "x"\nvendor_id = 7',
     "devices.shoe.vendor_id: unknown key (allowed: baudrate, heartbeat_timeout, kind, url)"),
])
def test_devices_by_kind(device: str, expected: str) -> None:
    """``[devices.NAME] kind``: the name is the game's device role, the kind picks the driver and
    its settings (drivers.kinds); each mismatch names its key."""
    base = MINIMAL.split("[devices.shoe]")[0] + '[devices.shuffler]\nkind = "shuffler"\nurl = "y"\n'
    (problem,) = errors(base + device)
    assert problem.startswith(expected), problem


@pytest.mark.parametrize("extra, expected", [
    ("[gpio.buttons]\nfold = 5", "gpio.buttons.fold: 'baccarat' has no button 'fold' (its buttons: deal, void, "
                                 "shuffle_ack, pass)"),
    ("[gpio.seat_lights.big_blind]\n1 = 5", "gpio.seat_lights.big_blind: 'baccarat' has no light group "
                                            "'big_blind' (its light groups: action, player_dealer)"),
    ("[gpio.seat_buttons.play]\n1 = 5", "gpio.seat_buttons.play: 'baccarat' has no seat button 'play' "
                                        "(its seat buttons: none)"),
])
def test_gpio_names_are_the_games_own(extra: str, expected: str) -> None:
    """Buttons, light groups and seat buttons are declared by the game; a config naming others is refused."""
    assert errors(with_(extra)) == [expected]


@pytest.mark.parametrize("extra, expected", [
    ("[mqtt]\nport = 70000", "mqtt.port: must be at most 65535 (got 70000)"),
    ("[mqtt]\nprefix = \"casino/#\"", "mqtt.prefix: must be topic levels without wildcards"),
    ("[mqtt]\nprefix = \"a//b\"", "mqtt.prefix: must be topic levels without wildcards"),
    ("[mqtt]\nprotocol = \"3\"", 'mqtt.protocol: must be one of "3.1.1", "5" (got "3")'),
    ("[game]\naction_wrap = true", 'game.action_wrap: must be one of "around_table", "skip_player_dealer" (got true)'),
    ("[game]\nfirst_player_dealer_seat = 9", "game.first_player_dealer_seat: must be at most 8 (got 9)"),
    ("[gpio]\npin_factory = \"pigpio\"", 'gpio.pin_factory: must be one of "default", "mock" (got "pigpio")'),
    ("[gpio.buttons]\ndael = 5", "gpio.buttons.dael: 'baccarat' has no button 'dael'"),
    ("[gpio.buttons]\nDeal = 5", 'gpio.buttons.Deal: must be a lower-case name such as "deal" or "shoe"'),
    ("[gpio.buttons]\ndeal = 28", "gpio.buttons.deal: must be a BCM GPIO number 0-27 (got 28)"),
    ("[gpio.buttons]\ndeal = \"GPIO5\"", 'gpio.buttons.deal: must be a BCM GPIO number 0-27 (got "GPIO5")'),
    ("[gpio.seat_lights.action]\n15 = 4", 'gpio.seat_lights.action.15: must be a seat number 1-14 (got "15")'),
    ("[gpio.seat_lights.action]\n0 = 4", 'gpio.seat_lights.action.0: must be a seat number 1-14 (got "0")'),
    ("[gpio.seat_lights.player_dealer]\n9 = 4", "gpio.seat_lights.player_dealer.9: seat 9 is beyond table.seats = 8"),
    ("[dealer]\nremote_buttons = 1", "dealer.remote_buttons: must be true or false (got 1)"),
])
def test_bad_values_name_their_key(extra: str, expected: str) -> None:
    (problem,) = errors(with_(extra))
    assert problem.startswith(expected), problem


def test_a_game_option_the_rules_refuse_names_its_key() -> None:
    """The options model checks what the schema cannot (a seat beyond this table's seats)."""
    text = MINIMAL.replace('game = "baccarat"', 'game = "baccarat"\nseats = 6') + "\n[game]\nfirst_player_dealer_seat = 7"
    assert errors(text) == ["game.first_player_dealer_seat: must be one of seats 1..6, not 7"]
    assert errors(MINIMAL.replace('game = "baccarat"', 'game = "baccarat"\nseats = 9')) == [
        "table.seats: Commission-Free Baccarat has 2 to 8 seated positions (rule 3), not 9"]


def test_a_pin_used_twice_names_both_uses() -> None:
    problems = errors(with_("[gpio.buttons]\ndeal = 5\n[gpio.seat_lights.action]\n3 = 5"))
    assert problems == ["gpio.seat_lights.action.3: pin 5 is already used by gpio.buttons.deal"]


def test_required_keys() -> None:
    assert errors("[table]\ngame = \"baccarat\"\n[devices.shoe]\nkind=\"card_shoe\"\nurl=\"x\"\n"
                  "[devices.shuffler]\nkind=\"shuffler\"\nurl=\"x\"") == ["table.id: is required"]
    assert errors("") == ["table: is required"]
    no_devices = MINIMAL.split("[devices.shoe]")[0]
    assert errors(with_("[devices.shoe]\nkind = \"card_shoe\"\nbaudrate = 9600\n[devices.shuffler]\n"
                        "kind = \"shuffler\"\nurl = \"y\"", no_devices)) == ["devices.shoe.url: is required"]
    # Rules between keys are checked once every key is well formed.
    assert errors(with_("[devices.shoe]\nkind = \"card_shoe\"\nurl = \"x\"", no_devices)) == [
        "devices.shuffler: is required: game 'baccarat' cannot be dealt without it (kind shuffler)"]


def test_every_problem_is_reported_at_once() -> None:
    text = with_("[mqtt]\nport = 0\nkeepalive = \"30\"\n[journal]\npaht = \"x\"",
                 MINIMAL.replace('"bac-01"', '"a b"'))
    assert errors(text) == [
        "journal.paht: unknown key (allowed: max_undelivered, path, warn_at)",
        'mqtt.keepalive: must be an integer (got "30")',
        "mqtt.port: must be at least 1 (got 0)",
        'table.id: must match ^[A-Za-z0-9_-]+$ (got "a b")',
    ]


def test_password_never_appears_in_errors_or_repr(tmp_path: Path) -> None:
    (problem,) = errors(with_("[mqtt]\npassword = 123456789"))
    assert problem == "mqtt.password: must be a string (got hidden)"
    config = parse_config(with_("[mqtt]\nusername = \"t\"\npassword = \"s3cret-word\""))
    assert config.mqtt.password == "s3cret-word"
    assert "s3cret-word" not in repr(config)


def test_password_file(tmp_path: Path) -> None:
    secret = tmp_path / "pw"
    secret.write_text("from-a-file\nignored second line\n")
    config = parse_config(with_(f"[mqtt]\nusername = \"t\"\npassword_file = \"{secret}\""))
    assert config.mqtt.password == "from-a-file"
    assert errors(with_(f"[mqtt]\npassword = \"x\"\npassword_file = \"{secret}\"")) == [
        "mqtt.password: give password or password_file, not both"]
    missing = tmp_path / "nope"
    assert errors(with_(f"[mqtt]\npassword_file = \"{missing}\"")) == [
        f"mqtt.password_file: cannot read {missing}: No such file or directory"]
    (tmp_path / "empty").write_text("")
    assert errors(with_(f"[mqtt]\npassword_file = \"{tmp_path / 'empty'}\"")) == [
        f"mqtt.password_file: {tmp_path / 'empty'} is empty"]


def test_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path / "nope.toml")
    assert str(caught.value) == f"{tmp_path / 'nope.toml'}: cannot read: No such file or directory"


# -- nan and the infinities (issue 13, defect 10) ---------------------------------------------

def _number_keys(schema: dict, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every key a schema lets be a (non-integer) number, by its path."""
    found = []
    for key, sub in schema.get("properties", {}).items():
        kinds = sub.get("type")
        if kinds == "number" or (isinstance(kinds, list) and "number" in kinds):
            found.append((*path, key))
        found += _number_keys(sub, (*path, key))
    return found


def _float_keys() -> list[tuple[tuple[str, ...], dict]]:
    """(path, the rest of a config) for every float the config takes: its own sections', each
    device kind's settings and each game's options, found in the schemas (not listed by hand)."""
    from controller.table.config_schema import CONFIG_SCHEMA
    from drivers.kinds import KINDS

    base = {"table": {"id": "t-1", "game": "baccarat"}}
    keys = [(path, base) for path in _number_keys(CONFIG_SCHEMA)]
    for kind, entry in KINDS.items():
        keys += [(("devices", "dev", *path), {**base, "devices": {"dev": {"kind": kind, "url": "x"}}})
                 for path in _number_keys(entry.settings)]
    for name in registry.names():
        keys += [(("game", *path), {"table": {"id": "t-1", "game": name}})
                 for path in _number_keys(registry.get(name).options_schema)]
    return keys


FLOAT_KEYS = _float_keys()


def test_the_float_keys_are_found_in_the_schemas() -> None:
    paths = {".".join(path) for path, _ in FLOAT_KEYS}
    assert {"journal.warn_at", "mqtt.reconnect_max_delay", "gpio.bounce_time",
            "devices.dev.heartbeat_timeout"} <= paths, paths


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("path, rest", FLOAT_KEYS, ids=[".".join(p) + f"({r['table']['game']})" for p, r in FLOAT_KEYS])
def test_every_float_key_refuses_nan_and_the_infinities(path: tuple[str, ...], rest: dict, value: float) -> None:
    """`warn_at = nan` stopped the table at start and `heartbeat_timeout = nan` the watchdog's pings:
    JSON Schema's minimum and maximum let nan through. Each float key names itself, once."""
    from controller.table.config import parse_raw

    raw = json.loads(json.dumps(rest))  # a deep copy
    node = raw
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = value
    with pytest.raises(ConfigError) as caught:
        parse_raw(raw, "t.toml")
    key = ".".join(path)
    assert [p for p in caught.value.problems if p.startswith(f"{key}:")] == [
        f"{key}: must be a finite number, not {value!r}"], caught.value.problems


@pytest.mark.parametrize("line, expected", [
    ("[journal]\nwarn_at = nan", "journal.warn_at: must be a finite number, not nan"),
    ("[journal]\nwarn_at = +inf", "journal.warn_at: must be a finite number, not inf"),
    ("[mqtt]\nreconnect_max_delay = -inf", "mqtt.reconnect_max_delay: must be a finite number, not -inf"),
    ("[game]\nfirst_player_dealer_seat = nan", "game.first_player_dealer_seat: must be a finite number, not nan"),
])
def test_toml_nan_and_inf_are_named_with_the_file(line: str, expected: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(with_(line), "t.toml")
    assert str(caught.value) == f"t.toml: {expected}"


def test_a_device_heartbeat_of_nan_is_refused_in_toml() -> None:
    text = MINIMAL.replace('url = "socket://127.0.0.1:7001"', 'url = "socket://127.0.0.1:7001"\nheartbeat_timeout = nan')
    assert errors(text) == ["devices.shoe.heartbeat_timeout: must be a finite number, not nan"]


def test_a_non_finite_password_is_not_quoted() -> None:
    assert errors(with_("[mqtt]\npassword = nan")) == ["mqtt.password: must be a string (got hidden)"]
