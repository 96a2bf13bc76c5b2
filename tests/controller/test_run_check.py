"""`tablectl run --check` (issue 24): a config and the devices it names, checked before a restart:
every problem one line naming its key, exit 0 or 2. Serial lines are real pseudo-terminals; the
dice cup is the simulator's, found through the real pyusb code path."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from controller.table.check import problems
from controller.table.config import parse_raw
from hw_sim.table_config import sim_table_raw, to_toml


@pytest.fixture
def ptys():
    made = [os.openpty() for _ in range(2)]
    yield [os.ttyname(slave) for _, slave in made]
    for master, slave in made:
        os.close(master)
        os.close(slave)


def config(tmp_path: Path, urls: list[str], game: str = "baccarat") -> Path:
    raw = sim_table_raw(game)
    for dev, url in zip(raw["devices"].values(), urls, strict=False):
        dev["url"] = url
    raw["journal"]["path"] = str(tmp_path / "var" / "journal.db")
    path = tmp_path / "table.toml"
    path.write_text(to_toml(raw))
    return path


def run_check(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "controller.cli", "run", "--check", "--config", str(path)],
                          capture_output=True, text=True, timeout=60)


def test_a_good_config_with_its_ports_there_is_good(tmp_path: Path, ptys: list[str]):
    done = run_check(config(tmp_path, ptys))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"tablectl run --check: {tmp_path / 'table.toml'} is good: table baccarat-sim-01 "
                                  "(baccarat), 2 device(s) found and opened")


def test_every_problem_is_one_line_with_its_key(tmp_path: Path, ptys: list[str]):
    path = config(tmp_path, [str(tmp_path / "no-shoe"), ptys[1]])
    done = run_check(path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"tablectl run --check: devices.shoe.url: {tmp_path / 'no-shoe'} does not exist (is the shoe plugged in? "
        "docs/operations.md, udev rules)"]


def test_a_config_error_is_every_error_at_once(tmp_path: Path):
    path = tmp_path / "table.toml"
    path.write_text('[table]\nid = "Bad Id"\ngame = "baccarat"\nseats = 99\n[mqtt]\nport = "x"\n'
                    '[journal]\npath = "j.db"\n')
    done = run_check(path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert [line.removeprefix("tablectl: ").split(": ")[1] for line in done.stderr.splitlines()] == [
        "mqtt.port", "table.id", "table.seats"]


def test_a_dice_cup_is_looked_for_on_its_backend(tmp_path: Path):
    from hw_sim.rig import SimRig
    from hw_sim.table_config import deck_and_kinds

    raw = sim_table_raw("pai_gow_tiles")
    spec, kinds = deck_and_kinds(raw)
    rig = SimRig(spec, kinds=kinds, settings={n: dict(d) for n, d in raw["devices"].items()}).start()
    try:
        for dev in raw["devices"].values():
            dev["backend"] = rig.urls[next(iter(raw["devices"]))]
        raw["journal"]["path"] = str(tmp_path / "journal.db")
        cfg = parse_raw(raw, "<test>")
        assert problems(cfg) == []                                  # found through pyusb, on the sim's bus
        (name, dev), = cfg.devices.items()
        wrong = replace(cfg, devices={name: replace(dev, settings={**dev.settings, "product_id": 0x7777})})
        assert problems(wrong)[0].startswith(f"devices.{name}: no USB device ")
        elsewhere = replace(cfg, devices={name: replace(dev, settings={**dev.settings, "backend": "hwsim://gone"})})
        assert problems(elsewhere)[0].startswith(f"devices.{name}.backend: no USB backend 'hwsim://gone'")
    finally:
        rig.stop()
