"""`tablectl sim --game G --write-config FILE`: any game's simulated table as a file, for a floor
of `tablectl sim` and `tablectl run` pairs; every bad option is refused with exit 2, naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from controller.table.config import load_config
from games import registry


@pytest.mark.parametrize("game", registry.PACKAGES)
def test_every_game_s_simulated_table_is_written_and_loads(game: str, tmp_path: Path, capsys) -> None:
    target = tmp_path / f"{game}.toml"
    devices = tmp_path / "dev"
    assert main(["sim", "--game", game, "--write-config", str(target), "--table-id", f"{game[:4]}-7",
                 "--broker", "10.0.0.5:1884", "--dir", str(devices)]) == 0
    assert capsys.readouterr().out == f"tablectl sim: wrote {target} (table {game[:4]}-7, {registry.get(game).title})\n"
    config = load_config(target)
    assert (config.table.id, config.table.game, config.table.autostart) == (f"{game[:4]}-7", game, True)
    assert (config.mqtt.host, config.mqtt.port) == ("10.0.0.5", 1884)
    assert config.journal.path == devices / f"{game[:4]}-7.db"
    assert config.dealer.remote_buttons is True
    entry = registry.get(game)
    assert set(config.devices) == set(entry.roles_with(config.options))
    for name, dev in config.devices.items():
        if dev.kind == "dice_cup":
            assert dev.settings["backend"] == f"unix:{devices}/{name}.sock"
        else:
            assert dev.url == f"{devices}/{name}"
    assert target.read_text().startswith(f"# A simulated {entry.title} table, written by tablectl sim")


def test_the_defaults_are_the_game_s_name_and_a_folder_per_table(tmp_path: Path) -> None:
    target = tmp_path / "ha.toml"
    assert main(["sim", "--game", "hot_action", "--write-config", str(target)]) == 0
    config = load_config(target)
    assert config.table.id == "hot-action-sim-01"
    assert (config.mqtt.host, config.mqtt.port) == ("127.0.0.1", 1883)
    assert config.devices["shoe"].url == "/tmp/tablectl-sim/hot-action-sim-01/shoe"
    assert config.devices["cup"].settings["backend"] == "unix:/tmp/tablectl-sim/hot-action-sim-01/cup.sock"
    assert config.journal.path == Path("var/hot-action-sim-01.db")


def test_an_existing_file_is_replaced_only_when_told(tmp_path: Path, capsys) -> None:
    target = tmp_path / "t.toml"
    target.write_text("# mine\n")
    assert main(["sim", "--game", "baccarat", "--write-config", str(target)]) == 2
    assert capsys.readouterr().err == f"tablectl sim: {target} exists; --force replaces it\n"
    assert target.read_text() == "# mine\n"
    assert main(["sim", "--game", "baccarat", "--write-config", str(target), "--force"]) == 0
    assert load_config(target).table.game == "baccarat"


@pytest.mark.parametrize("args, error", [
    (["--write-config", "{t}"], "tablectl sim: --write-config needs --game (one of baccarat, joker_seven"),
    (["--game", "baccarat", "--write-config", "{t}", "--table-id", "bad id"],
     'tablectl: {t}: table.id: must match ^[A-Za-z0-9_-]+$ (got "bad id")'),
    (["--game", "pai_gow_tiles", "--write-config", "{t}", "--dir", "/tmp/" + "d" * 100],
     "tablectl: {t}: devices.cup.backend: must be libusb1 (the default), libusb0, openusb, unix:/PATH"),
    (["--config", "{t}", "--game", "baccarat", "--table-id", "x"],
     "tablectl sim: --game, --table-id only with --write-config (--config names the table)"),
])
def test_bad_options_exit_2_naming_them(args: list[str], error: str, tmp_path: Path, capsys) -> None:
    target = str(tmp_path / "t.toml")
    assert main(["sim", *[a.format(t=target) for a in args]]) == 2
    assert capsys.readouterr().err.startswith(error.format(t=target))
    assert not Path(target).exists()


@pytest.mark.parametrize("args, error", [
    (["--game", "poker", "--write-config", "x.toml"], "argument --game: invalid choice: 'poker'"),
    (["--game", "baccarat", "--write-config", "x.toml", "--broker", "host:port"],
     "argument --broker: broker address 'host:port': port must be a number 1-65535"),
    (["--config", "a.toml", "--write-config", "b.toml"], "argument --write-config: not allowed with argument --config"),
    ([], "one of the arguments --config --write-config is required"),
])
def test_bad_arguments_are_argparse_s(args: list[str], error: str, capsys) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["sim", *args])
    assert caught.value.code == 2
    assert error in capsys.readouterr().err


# --- a fault that could never fire: refused before anything starts ---------------------------------

def test_tablectl_sim_refuses_a_fault_the_table_can_never_have(tmp_path: Path, capsys) -> None:
    """Nothing starts: no device appears, no broker is asked (this config's broker is not running)."""
    config = tmp_path / "pgt.toml"
    assert main(["sim", "--game", "pai_gow_tiles", "--write-config", str(config), "--broker", "127.0.0.1:9",
                 "--dir", str(tmp_path / "dev")]) == 0
    capsys.readouterr()
    assert main(["sim", "--config", str(config), "--fault", "unplug@round:3"]) == 2
    assert capsys.readouterr().err == ("tablectl sim: fault unplug@round:3: the table has no shoe (its devices: cup), "
                                       "so it can never happen; cup.unplug@round:3 names the cup\n")
    assert not (tmp_path / "dev").exists()


def test_tablectl_demo_refuses_it_before_its_broker_starts(capsys) -> None:
    assert main(["demo", "--game", "three_card_poker", "--fault", "shuffler.jam@card:4"]) == 2
    out = capsys.readouterr()
    assert out.out == ""                                   # no "broker 127.0.0.1:..." line: nothing started
    assert out.err == ("tablectl demo: fault jam@card:4: Three Card Poker never prompts the dealer for card, so it "
                       "can never happen (its steps: deck_check, shuffle, bets, hand, settle, fault)\n")
