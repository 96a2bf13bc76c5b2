"""Dealer buttons, players' seat buttons and seat lights on the Pi's GPIO pins, through gpiozero.

gpiozero picks the pin backend (``gpiozero.Device.pin_factory``): lgpio on a
Pi, :class:`gpiozero.pins.mock.MockFactory` in tests and the simulator, so
this module never knows which one runs.

Which buttons and light groups exist is the game's to declare
(games.registry); the config maps their names to pins, and this module
knows none of the names. A press arrives in gpiozero's own thread; the
callback only puts a :class:`~drivers.events.ButtonPressed` on the table's
inbox (with the seat, for a seat button), so game state is touched by the
table thread alone. Lights are set by :meth:`TableGpio.show` from the table
thread, with the whole picture each time (which seats each light group
lights, which buttons are lit), so a missed update can never leave a stale
light on.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Iterable, Mapping
from typing import Any

from gpiozero import LED, DigitalInputDevice

from drivers.events import ButtonPressed

log = logging.getLogger(__name__)

DEVICE = "buttons"


class TableGpio:
    """The table's buttons and lights. ``close()`` releases every pin.

    ``buttons``/``button_leds``: dealer button name -> pin; ``seat_buttons``:
    seat button name -> seat -> pin; ``seat_lights``: light group -> seat -> pin.
    """

    def __init__(
        self,
        inbox: queue.Queue,
        *,
        buttons: Mapping[str, int],
        button_leds: Mapping[str, int],
        seat_lights: Mapping[str, Mapping[int, int]],
        seat_buttons: Mapping[str, Mapping[int, int]] | None = None,
        bounce_time: float | None = None,
    ) -> None:
        seat_buttons = seat_buttons or {}
        uses: list[tuple[str, int]] = [(f"button {n!r}", p) for n, p in buttons.items()]
        uses += [(f"button light {n!r}", p) for n, p in button_leds.items()]
        uses += [(f"{g} light of seat {s}", p) for g, m in seat_lights.items() for s, p in m.items()]
        uses += [(f"{b} button of seat {s}", p) for b, m in seat_buttons.items() for s, p in m.items()]
        self._check_pins(uses)
        unknown = sorted(set(button_leds) - set(buttons))
        if unknown:
            raise ValueError(f"button lights for buttons that do not exist: {unknown}")
        self.inbox = inbox
        self._told: set[str] = set()  # light problems already logged
        self._shown: dict[int, bool] = {}  # id(led) -> what it was last set to (each is set on change only)
        self._inputs: list[DigitalInputDevice] = []
        self._button_leds: dict[str, LED] = {}
        self._seat_lights: dict[str, dict[int, LED]] = {}
        try:
            for name, pin in buttons.items():
                self._inputs.append(self._button(pin, name, None, bounce_time))
            for name, by_seat in seat_buttons.items():
                for seat, pin in by_seat.items():
                    self._inputs.append(self._button(pin, name, seat, bounce_time))
            self._button_leds = {name: LED(pin) for name, pin in button_leds.items()}
            self._seat_lights = {g: {seat: LED(pin) for seat, pin in m.items()} for g, m in seat_lights.items()}
        except Exception:
            self.close()
            raise

    @staticmethod
    def _check_pins(uses: list[tuple[str, int]]) -> None:
        """One pin, one use: say which two uses collide, not just "pin in use"."""
        seen: dict[int, str] = {}
        for use, pin in uses:
            if pin in seen:
                raise ValueError(f"GPIO pin {pin} assigned twice: {seen[pin]} and {use}")
            seen[pin] = use

    def _button(self, pin: int, name: str, seat: int | None, bounce_time: float | None) -> DigitalInputDevice:
        # A Button without its hold detection: gpiozero's Button runs a thread per button that
        # wakes ten times a second to look for a hold (HoldThread), three quarters of an idle
        # table's CPU (`tablectl bench`, footprint); we never use holds. Same wiring as Button:
        # pulled up, pressed = pulled low.
        button = DigitalInputDevice(pin, pull_up=True, bounce_time=bounce_time)
        event = ButtonPressed(DEVICE, name, seat)

        def pressed() -> None:
            self.inbox.put(event)  # gpiozero's thread: hand over and return, nothing else
        button.when_activated = pressed
        return button

    def show(self, lights: Mapping[str, Any]) -> list[str]:
        """Set every light to this picture (games.round.lifecycle.RoundMachine.lights). Returns
        what could not be shown (a seat or button with no light), for the caller to raise an
        alarm; it does not raise, because a light is never worth stopping a table."""
        problems: list[str] = []
        wanted: Mapping[str, Iterable[int]] = lights.get("seats", {})
        for group, leds in self._seat_lights.items():
            on = set(wanted.get(group, ()))
            for seat, led in leds.items():
                self._set(led, seat in on)
        for group, seats in wanted.items():
            leds = self._seat_lights.get(group, {})
            problems += [f"seat {s} has no {group.replace('_', '-')} light" for s in seats if s not in leds]
        lit = set(lights.get("buttons_lit", ()))
        for name, led in self._button_leds.items():
            self._set(led, name in lit)
        problems += [f"button {name!r} has no light" for name in sorted(lit - set(self._button_leds))]
        for problem in problems:
            if problem not in self._told:  # once: a missing light is a config fact, not news every round
                self._told.add(problem)
                log.warning("lights: %s", problem)
        return problems

    def _set(self, led: Any, on: bool) -> None:
        """Only a light that changes is written: gpiozero's value setter costs about 7 us of
        Python per light, and a picture changes one or two of twenty (issue 11: CPU per event)."""
        if self._shown.get(id(led)) is not on:
            led.value = on
            self._shown[id(led)] = on

    def lit(self) -> dict[str, Any]:
        """What the lights show now (for tests and the state topic)."""
        return {
            "seats": {g: sorted(s for s, led in leds.items() if led.is_lit) for g, leds in self._seat_lights.items()},
            "buttons_lit": sorted(n for n, led in self._button_leds.items() if led.is_lit),
        }

    def close(self) -> None:
        for device in [*self._inputs, *self._button_leds.values(),
                       *(led for leds in self._seat_lights.values() for led in leds.values())]:
            device.close()
        self._inputs.clear()
        self._button_leds.clear()
        self._seat_lights.clear()
        self._shown.clear()

    def __enter__(self) -> TableGpio:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
