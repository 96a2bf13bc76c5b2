"""The table config: the example loads, and every bad input names its key and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config import ConfigError, load_config, parse_config

ROOT = Path(__file__).resolve().parents[2]

MINIMAL = """
[table]
id = "bac-01"
game = "baccarat"

[devices.shoe]
url = "socket://127.0.0.1:7001"

[devices.shuffler]
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
    assert config.gpio.action_lights[8] == 4  # seat keys become ints
    assert config.dealer.remote_buttons is False


def test_defaults_of_a_minimal_config() -> None:
    config = parse_config(MINIMAL)
    assert (config.table.seats, config.table.autostart) == (8, False)
    assert (config.mqtt.host, config.mqtt.port, config.mqtt.prefix) == ("127.0.0.1", 1883, "casino")
    assert config.journal.path == Path("var/bac-01.db")
    assert config.gpio is None
    assert config.game.action_wrap == "around_table"


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
    ("[devices.dice]\nurl = \"x\"", "devices.dice: unknown key (allowed: shoe, shuffler)"),
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
    assert errors(MINIMAL.replace('"baccarat"', '"poker"')) == ['table.game: must be one of "baccarat" (got "poker")']


@pytest.mark.parametrize("extra, expected", [
    ("[mqtt]\nport = 70000", "mqtt.port: must be at most 65535 (got 70000)"),
    ("[mqtt]\nprefix = \"casino/#\"", "mqtt.prefix: must be topic levels without wildcards"),
    ("[mqtt]\nprefix = \"a//b\"", "mqtt.prefix: must be topic levels without wildcards"),
    ("[mqtt]\nprotocol = \"3\"", 'mqtt.protocol: must be one of "3.1.1", "5" (got "3")'),
    ("[game]\naction_wrap = true", 'game.action_wrap: must be one of "around_table", "skip_player_dealer" (got true)'),
    ("[game]\nfirst_player_dealer_seat = 9", "game.first_player_dealer_seat: seat 9 is beyond table.seats = 8"),
    ("[gpio]\npin_factory = \"pigpio\"", 'gpio.pin_factory: must be one of "default", "mock" (got "pigpio")'),
    ("[gpio.buttons]\ndael = 5", 'gpio.buttons.dael: must be one of "deal", "void", "shuffle_ack", "pass" (got "dael")'),
    ("[gpio.buttons]\ndeal = 28", "gpio.buttons.deal: must be a BCM GPIO number 0-27 (got 28)"),
    ("[gpio.buttons]\ndeal = \"GPIO5\"", 'gpio.buttons.deal: must be a BCM GPIO number 0-27 (got "GPIO5")'),
    ("[gpio.action_lights]\n15 = 4", 'gpio.action_lights.15: must be a seat number 1-14 (got "15")'),
    ("[gpio.action_lights]\n0 = 4", 'gpio.action_lights.0: must be a seat number 1-14 (got "0")'),
    ("[gpio.player_dealer_lights]\n9 = 4", "gpio.player_dealer_lights.9: seat 9 is beyond table.seats = 8"),
    ("[dealer]\nremote_buttons = 1", "dealer.remote_buttons: must be true or false (got 1)"),
])
def test_bad_values_name_their_key(extra: str, expected: str) -> None:
    (problem,) = errors(with_(extra))
    assert problem.startswith(expected), problem


def test_a_pin_used_twice_names_both_uses() -> None:
    problems = errors(with_("[gpio.buttons]\ndeal = 5\n[gpio.action_lights]\n3 = 5"))
    assert problems == ["gpio.action_lights.3: pin 5 is already used by gpio.buttons.deal"]


def test_required_keys() -> None:
    assert errors("[table]\ngame = \"baccarat\"\n[devices.shoe]\nurl=\"x\"\n[devices.shuffler]\nurl=\"x\"") \
        == ["table.id: is required"]
    assert errors("") == ["table: is required"]
    no_devices = MINIMAL.split("[devices.shoe]")[0]
    assert errors(with_("[devices.shoe]\nbaudrate = 9600", no_devices)) == ["devices.shoe.url: is required"]
    # Rules between keys are checked once every key is well formed.
    assert errors(with_("[devices.shoe]\nurl = \"x\"", no_devices)) == [
        "devices.shuffler: is required: game 'baccarat' cannot be dealt without it"]


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
