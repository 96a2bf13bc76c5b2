"""The game registry: every game the controller can deal, and what it needs, from one place.

A game is a package under ``games/`` (its rules, deck spec, options model,
round machine and event schemas) whose ``__init__`` defines ``GAME``, a
:class:`GameEntry`; :data:`PACKAGES` lists the packages, in the order
`tablectl` shows them. The controller (config checks, device roles,
buttons and lights, the demo), the simulator and the tests ask the
registry and hold no per-game branch (docs/internals.md, "Adding a game").
Entries load lazily by package name, as Klipper loads ``extras/`` modules
by config section name, so importing the registry imports no game.

Tests register games of their own (a neutral game that proves the base
machine and the table without baccarat) with :func:`register`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.decks import DeckSpec
from games.odds import GameOdds, OutcomeClasses
from games.options import OptionError
from games.round import DeviceRole, Emit, RoundMachine

PACKAGES: tuple[str, ...] = ("baccarat", "joker_seven", "betwin", "three_card_poker", "seven_card_thrill",
                             "no_bust", "double_hand", "hot_action", "pai_gow_tiles", "holdem", "stud",
                             "draw", "mexican_stud", "panguingue")
"""The game packages under ``games/``; each defines ``GAME``."""


@dataclass(frozen=True)
class GameEntry:
    """One game, as everything outside its package sees it.

    - ``machine``: the round-machine class; its class attributes declare the
      dealer's buttons (``BUTTONS``), the seat buttons (``SEAT_BUTTONS``), the
      seat-light groups (``LIGHT_GROUPS``) and the device roles (``ROLES``).
    - ``options``: builds the options model from the config's ``[game]``
      section and ``table.seats``; raises :class:`~games.options.OptionError`.
    - ``options_schema``: the JSON Schema of ``[game]``.
    - ``build``: ``(options, emit, first_round) -> machine``.
    - ``deck``: the deck spec the options call for (the shuffler's deck check).
    - ``option_keys``: the config key of an option field that is not under
      ``[game]`` (``seats`` -> ``table.seats``).
    - ``schemas``: a directory of JSON Schemas of the game's own events
      (``card``, ``result`` ...), which refine the generic ones.
    - ``demo``: ``table.seats`` and ``[game]`` of the simulated table, and ``devices``: settings
      of its ``[devices.<role>]`` beyond where to find them (a dice cup's ``dice``).
    - ``commands``: pit commands the game adds (beyond open, close, void ...).
    - ``odds``: each wager's probabilities and edge (games.odds), for `tablectl odds`.
    """

    name: str
    title: str
    sheet: str
    machine: type[RoundMachine]
    options: Callable[[Mapping[str, Any], int], Any]
    options_schema: Mapping[str, Any]
    build: Callable[[Any, Emit, int], RoundMachine]
    deck: Callable[[Any], DeckSpec]
    seats: tuple[int, int]
    schemas: Path | None = None
    option_keys: Mapping[str, str] = field(default_factory=dict)
    demo: Mapping[str, Any] = field(default_factory=dict)
    commands: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Pit commands the game adds (``cmd/<name>``), each with the JSON Schema of its payload; the
    machine answers ``command(name, args)``."""
    summary: Callable[[Mapping[str, Any]], str] | None = None
    """One line for a ``result`` event's data, as the pit reads it (`tablectl watch`, the demo)."""
    roles_for: Callable[[Any], Mapping[str, DeviceRole]] | None = None
    """The device roles a table with these options needs, when they depend on its options
    (Three Card Poker from a shoe or from a hand-forming shuffler); else ``machine.ROLES``."""
    odds: Callable[[str | None, int | None], GameOdds] | None = None
    """``(paytable, decks) -> GameOdds`` for `tablectl odds` (None: the game's defaults); raises
    ValueError naming what it refuses."""
    narrate: Mapping[str, Callable[[Mapping[str, Any]], list[str]]] = field(default_factory=dict)
    """The lines a person reads for an event of a kind (`tablectl demo`, `watch`), in the words of the
    game's sheet: ``result`` a line per hand with its cards, ``action_button`` what placed it. A kind
    the game leaves out reads the generic way (controller.pit.lines). Each may raise on data it cannot
    read: the event is then shown as it is."""
    legend: Mapping[str, str] = field(default_factory=dict)
    """A term the game's lines use, and what it means at this game: told once, under the first line
    that uses it (a newcomer reading the demo meets "action button" once, with how its count works)."""
    variant_key: str | None = None
    """The ``[game]`` option that names the game's variant or paytable (`tablectl demo --variant`)."""
    outcome_classes: Callable[[Any], OutcomeClasses] | None = None
    """``options -> OutcomeClasses``: the classes of its wagers' outcomes the table's integrity
    monitor counts, with their probabilities for these options (issue 25); None: none counted."""
    scoreboard: Callable[[Sequence[Mapping[str, Any]]], Mapping[str, Any]] | None = None
    """The shoe's scoreboard for the pit board (baccarat's roads): from the data of the ``result``
    events since the last shuffle, oldest first, to JSON with ``grids``, each ``{name, title, rows,
    cols, cells: [{col, row, mark, ...}]}``. Must not raise on a result it cannot read."""

    @property
    def roles(self) -> Mapping[str, DeviceRole]:
        return self.machine.ROLES

    @property
    def buttons(self) -> tuple[str, ...]:
        return self.machine.BUTTONS

    @property
    def seat_buttons(self) -> tuple[str, ...]:
        return self.machine.SEAT_BUTTONS

    @property
    def light_groups(self) -> tuple[str, ...]:
        return self.machine.LIGHT_GROUPS

    def roles_with(self, options: Any) -> Mapping[str, DeviceRole]:
        return self.roles if self.roles_for is None else self.roles_for(options)

    def config_key(self, option: str) -> str:
        """Where an option field comes from in the table config."""
        return self.option_keys.get(option, f"game.{option}")

    def load_options(self, section: Mapping[str, Any], seats: int) -> Any:
        """The options, or :class:`OptionError` whose ``field`` is already the config key."""
        try:
            return self.options(section, seats)
        except OptionError as exc:
            raise OptionError(self.config_key(exc.field), exc.why) from None


_extra: dict[str, GameEntry] = {}
_loaded: dict[str, GameEntry] = {}


def names() -> tuple[str, ...]:
    """Every registered game, the packages first."""
    return (*PACKAGES, *(n for n in _extra if n not in PACKAGES))


def get(name: str) -> GameEntry:
    """The entry of ``name``; :class:`KeyError` naming the known games otherwise."""
    if name in _extra:
        return _extra[name]
    if name not in PACKAGES:
        raise KeyError(f"no game {name!r}: the games are {', '.join(names())}")
    entry = _loaded.get(name)
    if entry is None:
        entry = importlib.import_module(f"games.{name}").GAME
        if not isinstance(entry, GameEntry) or entry.name != name:
            raise TypeError(f"games.{name}.GAME is not the GameEntry of {name!r}")
        _loaded[name] = entry
    return entry


def register(entry: GameEntry) -> None:
    """Add a game that is not a package here (a test's neutral game)."""
    _extra[entry.name] = entry


def unregister(name: str) -> None:
    _extra.pop(name, None)
