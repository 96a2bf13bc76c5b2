"""The round machine as the table sees it: the contract it uses, and the machine a config names.

No rule of any game lives in the table: the game comes from games.registry by the config's
``table.game``, built with the options checked when the config was loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from controller.table.config import Config, ConfigError
from games import registry
from games.round import Verdict

Emit = Callable[[str, dict], None]


class Machine(Protocol):
    """The round-machine contract of docs/internals.md (games.round.contract), as the table uses it."""

    state: str
    round: int | None
    BUTTONS: tuple[str, ...]
    SEAT_BUTTONS: tuple[str, ...]

    def open(self) -> None: ...
    def close(self) -> None: ...
    def void(self, reason: str, by: str) -> None: ...
    def resume(self, by: str) -> None: ...
    def device_input(self, role: str, kind: str, data: Mapping[str, Any]) -> None: ...
    def press(self, name: str, seat: int | None = None) -> Verdict: ...
    def snapshot(self) -> dict: ...
    def save(self) -> dict: ...
    def restore(self, saved: Mapping[str, Any], stopped_in: str | None) -> None: ...
    def command(self, name: str, args: Mapping[str, Any]) -> dict: ...

    @property
    def round_open(self) -> bool: ...


MachineFactory = Callable[[Config, Emit, int], Machine]


def build_machine(config: Config, emit: Emit, first_round: int = 1) -> Machine:
    """The round machine of ``config.table.game`` (games.registry), fed the options checked at load."""
    try:
        entry = registry.get(config.table.game)
    except KeyError as exc:
        raise ConfigError(config.source, [f"table.game: {exc.args[0]}"]) from None
    options = config.options if config.options is not None else _options(config, entry)
    return entry.build(options, emit, first_round)


def _options(config: Config, entry: registry.GameEntry) -> Any:
    from games.options import OptionError

    try:
        return entry.load_options(config.game, config.table.seats)
    except OptionError as exc:
        raise ConfigError(config.source, [f"{exc.field}: {exc.why}"]) from None
