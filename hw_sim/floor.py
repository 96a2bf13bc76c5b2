"""A simulated floor: many tables on one broker, each a real controller behind simulated devices.

`tablectl floor` is what the pit is tried against: every table is a ``tablectl run`` process with
its own journal (the production daemon, unchanged) and a ``tablectl sim`` process with its own
simulated devices and dealer, seeded apart and dealing at the pace asked for, until the floor is
stopped. Nothing here knows a controller type (DESIGN.md, import rule): tables are configs written
from the game registry (hw_sim.table_config) and processes started by command line, as the
benchmark starts them.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from games import registry
from hw_sim.bench.proc import BenchError, ReadySocket, Worker, python_argv
from hw_sim.table_config import sim_table_raw, to_toml

START_TIMEOUT = 60.0
"""Seconds a table's simulator, then its controller, may take to come up."""


class FloorError(Exception):
    """The floor cannot start as asked; the message says why (one line)."""


@dataclass(frozen=True)
class GameSpec:
    """One kind of table on the floor: a registered game and options over its demo's."""

    game: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The table id's stem: the game, and the option values that make it a variant."""
        parts = [self.game.replace("_", "-"), *(str(v).replace("_", "-") for v in self.options.values())]
        return re.sub(r"[^a-z0-9-]+", "-", "-".join(parts).lower()).strip("-")


def parse_spec(text: str) -> GameSpec:
    """``GAME`` or ``GAME:KEY=VALUE[/KEY=VALUE...]`` (``holdem:variant=omaha``,
    ``joker_seven:paytable=nj``); a value that reads as a number or a boolean is one."""
    game, _, rest = text.strip().partition(":")
    if game not in registry.names():
        raise ValueError(f"no game {game!r}: the games are {', '.join(registry.names())}")
    options: dict[str, Any] = {}
    for item in filter(None, rest.split("/")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"{text!r}: an option is KEY=VALUE, as in holdem:variant=omaha")
        options[key] = _scalar(value)
    entry = registry.get(game)
    section = {**entry.demo.get("game", {}), **options}
    problems = sorted(Draft202012Validator(entry.options_schema).iter_errors(section), key=str)
    if problems:   # as a config file's [game] would be refused
        where = "/".join(map(str, problems[0].absolute_path)) or "[game]"
        raise ValueError(f"{text!r}: {where}: {problems[0].message}")
    try:   # then the game's own checks, in its words
        entry.load_options(section, entry.demo.get("seats", entry.seats[1]))
    except ValueError as exc:
        raise ValueError(f"{text!r}: {exc}") from None
    return GameSpec(game, options)


def _scalar(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def default_specs() -> list[GameSpec]:
    """Every registered game as the demo deals it."""
    return [GameSpec(name) for name in registry.PACKAGES]


@dataclass(frozen=True)
class FloorTable:
    id: str
    spec: GameSpec
    seed: int
    faults: tuple[str, ...] = ()


def plan(specs: Sequence[GameSpec], count: int, seed: int,
         faults: Mapping[str, Sequence[str]] | None = None) -> list[FloorTable]:
    """``count`` tables, the specs in turn, each numbered within its kind and seeded apart."""
    if count < 1:
        raise FloorError("a floor needs one table at least")
    if not specs:
        raise FloorError("no game to deal")
    numbers: dict[str, int] = {}
    tables = []
    for i in range(count):
        spec = specs[i % len(specs)]
        numbers[spec.label] = numbers.get(spec.label, 0) + 1
        table_id = f"{spec.label}-{numbers[spec.label]:02d}"
        tables.append(FloorTable(table_id, spec, seed + i, tuple((faults or {}).get(table_id, ()))))
    unknown = sorted(set(faults or {}) - {t.id for t in tables})
    if unknown:
        raise FloorError(f"--fault names tables the floor does not have: {', '.join(unknown)} "
                         f"(its tables: {', '.join(t.id for t in tables[:6])}{' ...' if len(tables) > 6 else ''})")
    return tables


def table_config(table: FloorTable, directory: Path, host: str, port: int, prefix: str) -> dict[str, Any]:
    """The raw config of one floor table: the game's simulated table (its registry demo), with the
    floor's id, broker, journal and device addresses."""
    doc = sim_table_raw(table.spec.game, dict(table.spec.options), table_id=table.id, host=host, port=port,
                        folder=str(directory))   # devices in the table's folder: ptys, a cup's socket
    doc["table"]["autostart"] = True
    doc["mqtt"]["prefix"] = prefix
    doc["journal"]["path"] = str(directory / "journal.db")
    doc["dealer"]["remote_buttons"] = True
    return doc


class RunningTable:
    """One table's two processes: its simulator (devices and dealer) and its controller."""

    def __init__(self, table: FloorTable, directory: Path, config: Path) -> None:
        self.table = table
        self.dir = directory
        self.config = config
        self.sim: Worker | None = None
        self.ctl: Worker | None = None
        self.ready: ReadySocket | None = None
        self.stopping = False

    def start_sim(self, pace: str) -> None:
        argv = ["sim", "--config", str(self.config), "--seed", str(self.table.seed), "--pace", pace]
        for fault in self.table.faults:
            argv += ["--fault", fault]
        self.sim = Worker("sim", python_argv("controller.cli", *argv), self.dir)

    def start_controller(self) -> None:
        self.ready = ReadySocket(self.dir / "notify.sock")
        self.ctl = Worker("controller", python_argv("controller.cli", "run", "--config", str(self.config)),
                          self.dir, env={"NOTIFY_SOCKET": str(self.ready.path)})

    def wait_sim(self, timeout: float) -> None:
        assert self.sim is not None
        try:
            self.sim.expect("tablectl sim:", timeout)
        except BenchError as exc:
            raise FloorError(f"{self.table.id}: its simulator did not start: {exc}") from None

    def wait_controller(self, timeout: float) -> None:
        assert self.ctl is not None and self.ready is not None
        deadline = time.monotonic() + timeout
        while self.ready.wait(min(0.5, max(0.0, deadline - time.monotonic()))) is None:
            if self.ctl.proc.poll() is not None:
                raise FloorError(f"{self.table.id}: its controller exited ({self.ctl.proc.returncode}) before it "
                                 f"was ready{self.ctl.tail()}")
            if time.monotonic() >= deadline:
                raise FloorError(f"{self.table.id}: its controller was not ready within {timeout:.0f} s"
                                 f"{self.ctl.tail()}")

    def stop(self) -> list[str]:
        """The controller first (it drains what the broker has not acknowledged), then the
        simulator; what did not end cleanly, one line each."""
        self.stopping = True
        said = []
        for name, worker in (("controller", self.ctl), ("simulator", self.sim)):
            if worker is not None:
                rc = worker.stop(20)
                if rc not in (0, -15):
                    said.append(f"{self.table.id}: its {name} exited with {rc} (log: {worker.log_path})")
        if self.ready is not None:
            self.ready.close()
        return said


class Floor:
    """The floor's tables, started and watched; :meth:`stop` ends them all."""

    def __init__(self, tables: Iterable[FloorTable], directory: Path, host: str, port: int, *,
                 prefix: str = "casino", pace: str = "human", say=print) -> None:
        self.tables = list(tables)
        self.dir = directory
        self.host, self.port, self.prefix = host, port, prefix
        self.pace = pace
        self.say = say
        self.running: list[RunningTable] = []
        self.died = threading.Event()
        self.deaths: list[str] = []

    def start(self) -> None:
        """Every table's simulator, then every controller; returns once all are up. A table that
        cannot start stops the floor with its reason (:class:`FloorError`)."""
        for table in self.tables:
            directory = self.dir / table.id
            directory.mkdir(parents=True, exist_ok=True)
            config = directory / "table.toml"
            config.write_text(to_toml(table_config(table, directory, self.host, self.port, self.prefix)))
            running = RunningTable(table, directory, config)
            self.running.append(running)
            running.start_sim(self.pace)
        for running in self.running:
            running.wait_sim(START_TIMEOUT)
            running.start_controller()
        for running in self.running:
            running.wait_controller(START_TIMEOUT)
            spec = running.table.spec
            variant = "".join(f" {k}={v}" for k, v in spec.options.items())
            self.say(f"floor: {running.table.id} ({spec.game}{variant}, seed {running.table.seed}) is dealing")
        for running in self.running:
            for worker in (running.sim, running.ctl):
                assert worker is not None
                threading.Thread(target=self._watch, args=(running, worker), daemon=True,
                                 name=f"watch-{running.table.id}").start()

    def _watch(self, running: RunningTable, worker: Worker) -> None:
        """A process of the floor that ends before the floor stops is said at once, with its log."""
        rc = worker.proc.wait()
        if not running.stopping:
            what = "controller" if worker is running.ctl else "simulator"
            line = f"floor: {running.table.id}: its {what} exited ({rc}){worker.tail(5)}"
            self.deaths.append(line)
            self.say(line)
            self.died.set()

    def cpu_seconds(self) -> float:
        """User and system CPU seconds the floor's live processes have used (Linux ``/proc``)."""
        tick = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for running in self.running:
            for worker in (running.sim, running.ctl):
                if worker is None or worker.proc.poll() is not None:
                    continue
                with contextlib.suppress(OSError, IndexError, ValueError):
                    fields = Path(f"/proc/{worker.pid}/stat").read_text().rsplit(")", 1)[1].split()
                    total += (int(fields[11]) + int(fields[12])) / tick
        return total

    def stop(self) -> list[str]:
        said: list[str] = []
        for running in self.running:
            running.stopping = True
        for running in self.running:
            with contextlib.suppress(Exception):
                said += running.stop()
        return said


def journals(directory: Path) -> dict[str, Path]:
    """Each floor table's journal, by table id (what a test compares with the archive)."""
    return {p.parent.name: p for p in sorted(directory.glob("*/journal.db"))}


def say_err(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
