"""The wheel carries what the controller reads at run time.

docs/operations.md installs with a plain `pip install` (not editable), so the
JSON Schemas (commands are checked against them) and the simulated table's
config (demo, bench) must be inside the package, not only in the checkout.
The wheel is built from this tree, unpacked, and run from there with the
checkout out of the way: a schema or a file left behind fails here, not on a Pi.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from controller.shared.schemas import event_kinds

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # Built from a copy of the tree without setuptools' build/: a file renamed or removed since the
    # last build stays in build/lib and would go into the wheel (and two builds at once share it).
    tree = out / "tree"
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "__pycache__",
                                                              "var", ".pytest_cache", ".ruff_cache", "node_modules"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(out), str(tree)], check=True, capture_output=True, timeout=120)
    (wheel,) = out.glob("tablectl-*.whl")
    site = out / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    return site


def _run(site: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """Python with the unpacked wheel first on the path and the checkout not on it."""
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, *args], cwd=site.parent, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_the_wheel_has_every_schema_and_the_sim_config(installed: Path) -> None:
    schemas = installed / "controller" / "shared" / "data" / "schemas"
    shipped = sorted(p.stem for p in (schemas / "events").glob("*.json"))
    assert shipped == event_kinds() and len(shipped) >= 20
    for name in ("command", "reply", "state", "status", "envelope", "defs"):
        assert (schemas / f"{name}.json").is_file(), name
    assert (installed / "controller" / "data" / "baccarat-sim.toml").is_file()
    # every game's own narrowed event schemas (watch checks a table's events against its game's)
    games = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "games").glob("*/schemas/*.json"))
    assert len(games) >= 10
    for rel in games:
        assert (installed / rel).is_file(), f"{rel} is not in the wheel"
    # the pit board's page (controller.pit.board.web serves it from the package)
    for name in ("board.html", "board.css", "board.js", "login.html"):
        assert (installed / "controller" / "pit" / "board" / "static" / name).is_file(), name
    # the pit archive's migrations (tablectl pit applies them at start)
    migrations = sorted(p.name for p in (ROOT / "controller" / "pit" / "migrations").glob("*.sql"))
    assert migrations and sorted(p.name for p in (installed / "controller" / "pit" / "migrations").glob("*.sql")) \
        == migrations
    # the benchmark is a tool beside the simulator (`tablectl bench` imports it when it runs)
    for name in ("__init__", "__main__", "harness", "sim_worker", "workers"):
        assert (installed / "hw_sim" / "bench" / f"{name}.py").is_file(), name
    # and the checkout's docs/schemas and config/baccarat-sim.toml are those same files
    assert (ROOT / "docs" / "schemas").resolve() == (ROOT / "controller" / "shared" / "data" / "schemas").resolve()
    assert (ROOT / "config" / "baccarat-sim.toml").read_bytes() == \
        (installed / "controller" / "data" / "baccarat-sim.toml").read_bytes()


def test_an_installed_controller_checks_commands_and_deals_the_demo(installed: Path) -> None:
    probe = _run(installed, "-c", (
        "import controller, json\n"
        "from controller.table.commands import parse\n"
        "from controller.table.inbox import Command\n"
        "r = parse(Command('replay', b'{\"id\": 1, \"from\": 2, \"to\": 3}', 't'), remote_buttons=False)\n"
        "print(controller.__file__)\n"
        "print(r.name, r.args)\n"))
    assert probe.returncode == 0, probe.stderr
    where, request = probe.stdout.splitlines()
    assert where.startswith(str(installed)), "the wheel's code ran, not the checkout's"
    assert request == "replay {'from': 2, 'to': 3}"
    demo = _run(installed, "-m", "controller.cli", "demo", "--rounds", "3", "--seed", "5", timeout=120)
    assert demo.returncode == 0, demo.stderr[-2000:]
    assert demo.stdout.splitlines()[-1].startswith("3 rounds in ")


def test_an_installed_tablectl_odds_prints_the_figures_shipped_as_data(installed: Path) -> None:
    """The odds counted or simulated offline (tools/odds/) are package data: a wheel install prints
    them with where they came from, not a live simulation of its own."""
    data = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "games").glob("*/data/*.json"))
    assert len(data) >= 4
    for rel in data:
        assert (installed / rel).is_file(), f"{rel} is not in the wheel"
    for game, says in (("hot_action", "counted offline by tools/odds/hot_action_bet.py"),
                       ("no_bust", "(seed 23) simulated offline by tools/odds/simulate_bets.py"),
                       ("double_hand", "(seed 23) simulated offline by tools/odds/simulate_bets.py"),
                       ("pai_gow_tiles", "counted by tools/odds/pai_gow_house_way.py")):
        odds = _run(installed, "-m", "controller.cli", "odds", game)
        assert odds.returncode == 0, odds.stderr[-2000:]
        assert says in odds.stdout, game
