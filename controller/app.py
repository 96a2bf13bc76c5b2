"""Assemble one table's controller from its config: journal, publisher,
drivers, GPIO and the table loop. `tablectl run`, the demo and the
end-to-end tests all build the controller here, so what is tested is what
runs under the table.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass

from controller.config import Config
from controller.journal import Journal
from controller.publisher import Publisher
from controller.table import Health, Table, game_options
from drivers.gpio import TableGpio
from drivers.shoe import ShoeDriver
from drivers.shuffler import ShufflerDriver

DRIVERS = {"shoe": ShoeDriver, "shuffler": ShufflerDriver}


@dataclass
class Controller:
    table: Table
    gpio: TableGpio | None
    journal: Journal

    def start(self, ready_timeout: float = 30.0) -> Controller:
        self.table.start().wait_ready(ready_timeout)
        return self

    def stop(self) -> None:
        self.table.stop()


def use_pin_factory(name: str) -> None:
    """``mock`` runs the real gpiozero code on simulated pins (no Pi needed)."""
    if name == "mock":
        from gpiozero import Device
        from gpiozero.pins.mock import MockFactory

        if not isinstance(Device.pin_factory, MockFactory):
            Device.pin_factory = MockFactory()


def build_controller(cfg: Config, *, on_ready: Callable[[], None] | None = None,
                     on_tick: Callable[[Health], None] | None = None, tick: float = 10.0) -> Controller:
    game_options(cfg)  # a value the game's rules refuse is a config error now, not in the table thread
    inbox: queue.Queue = queue.Queue()
    cfg.journal.path.parent.mkdir(parents=True, exist_ok=True)
    journal = Journal(cfg.journal.path, cfg.table.id)
    publisher = Publisher(cfg.mqtt, cfg.table.id, inbox, game=cfg.table.game)
    drivers = {}
    for name, dev in cfg.devices.items():
        cls = DRIVERS.get(name)
        if cls is None:
            raise ValueError(f"{cfg.source}: devices.{name}: no driver for a device named {name!r}; "
                             f"known: {sorted(DRIVERS)}")
        drivers[name] = cls(name, dev.url, inbox, baudrate=dev.baudrate, heartbeat_timeout=dev.heartbeat_timeout)
    gpio = None
    if cfg.gpio is not None:
        use_pin_factory(cfg.gpio.pin_factory)
        gpio = TableGpio(inbox, buttons=cfg.gpio.buttons, button_leds=cfg.gpio.button_leds,
                         action_lights=cfg.gpio.action_lights,
                         player_dealer_lights=cfg.gpio.player_dealer_lights,
                         bounce_time=cfg.gpio.bounce_time or None)
    table = Table(cfg, inbox=inbox, journal=journal, publisher=publisher, drivers=drivers, gpio=gpio,
                  on_ready=on_ready, on_tick=on_tick, tick=tick)
    return Controller(table, gpio, journal)


def mock_press(cfg: Config) -> Callable[[str], None]:
    """A finger on the mock pins: what the in-process simulated dealer presses with."""
    from gpiozero import Device

    pins = dict(cfg.gpio.buttons) if cfg.gpio else {}

    def press(name: str) -> None:
        pin = Device.pin_factory.pin(pins[name])
        pin.drive_low()
        pin.drive_high()
    return press
