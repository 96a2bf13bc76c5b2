"""Assemble one table's controller from its config: journal, publisher,
drivers, GPIO and the table loop. `tablectl run`, the demo and the
end-to-end tests all build the controller here, so what is tested is what
runs under the table.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass

from controller.table.config import Config
from controller.table.inbox import Inbox
from controller.table.instance_lock import InstanceLock
from controller.table.journal import Journal
from controller.table.journal_check import lock_fault, prepare_directory
from controller.table.loop import Health, Table
from controller.table.publisher import Publisher
from drivers.gpio import TableGpio
from drivers.kinds import open_driver


@dataclass
class Controller:
    table: Table
    gpio: TableGpio | None
    journal: Journal
    lock: InstanceLock | None = None

    def start(self, ready_timeout: float = 30.0) -> Controller:
        self.table.start().wait_ready(ready_timeout)
        return self

    def stop(self) -> None:
        self.table.stop()
        if self.lock is not None:
            self.lock.release()


def use_pin_factory(name: str) -> None:
    """``mock`` runs the real gpiozero code on simulated pins (no Pi needed)."""
    if name == "mock":
        from gpiozero import Device
        from gpiozero.pins.mock import MockFactory

        if not isinstance(Device.pin_factory, MockFactory):
            Device.pin_factory = MockFactory()


def build_controller(cfg: Config, *, on_ready: Callable[[], None] | None = None,
                     on_tick: Callable[[Health], None] | None = None, tick: float = 10.0) -> Controller:
    inbox = Inbox()
    prepare_directory(cfg.journal.path)  # JournalError: a journal path no table can write
    try:
        lock = InstanceLock(cfg.journal.path, cfg.table.id).acquire()  # TableLocked: another controller has it
    except OSError as exc:
        raise lock_fault(cfg.journal.path, exc) from None
    try:
        journal = Journal(cfg.journal.path, cfg.table.id)
        publisher = Publisher(cfg.mqtt, cfg.table.id, inbox, game=cfg.table.game)
        # Each device by its kind (drivers.kinds); its name is the role it fills in the game.
        drivers = {name: open_driver(name, dev.kind, dev.driver_settings(), inbox) for name, dev in cfg.devices.items()}
        gpio = None
        if cfg.gpio is not None:
            use_pin_factory(cfg.gpio.pin_factory)
            gpio = TableGpio(inbox, buttons=cfg.gpio.buttons, button_leds=cfg.gpio.button_leds,
                             seat_lights=cfg.gpio.seat_lights, seat_buttons=cfg.gpio.seat_buttons,
                             bounce_time=cfg.gpio.bounce_time or None)
        table = Table(cfg, inbox=inbox, journal=journal, publisher=publisher, drivers=drivers, gpio=gpio,
                      on_ready=on_ready, on_tick=on_tick, tick=tick)
    except BaseException:
        lock.release()
        raise
    return Controller(table, gpio, journal, lock)


def mock_press(cfg: Config, inbox: queue.Queue | None = None) -> Callable[..., None]:
    """A finger on the mock pins: what the in-process simulated dealer presses with
    (``press(name)`` for a dealer's button, ``press(name, seat)`` for a seat's). A button with no
    pin (a seat button of a simulated table whose pins ran out) goes to ``inbox`` as the GPIO
    driver would report it, as if wired to an I/O expander."""
    from gpiozero import Device

    from drivers.events import ButtonPressed
    from drivers.gpio import DEVICE

    pins = dict(cfg.gpio.buttons) if cfg.gpio else {}
    seat_pins = {b: dict(m) for b, m in cfg.gpio.seat_buttons.items()} if cfg.gpio else {}

    def press(name: str, seat: int | None = None) -> None:
        number = pins.get(name) if seat is None else seat_pins.get(name, {}).get(seat)
        if number is None:
            if inbox is None:
                raise KeyError(f"no pin for {name!r}" + ("" if seat is None else f" of seat {seat}"))
            inbox.put(ButtonPressed(DEVICE, name, seat))
            return
        pin = Device.pin_factory.pin(number)
        pin.drive_low()
        pin.drive_high()
    return press
