"""Dealer buttons and seat lights on the Pi's GPIO pins, through gpiozero.

gpiozero picks the pin backend (``gpiozero.Device.pin_factory``): lgpio on a
Pi, :class:`gpiozero.pins.mock.MockFactory` in tests and the simulator, so
this module never knows which one runs.

A press arrives in gpiozero's own thread; the callback only puts a
:class:`~drivers.events.ButtonPressed` on the table's inbox, so game state is
touched by the table thread alone. Lights are set by :meth:`TableGpio.show`
from the table thread, with the whole picture each time (which seat's
action light, which player-dealer light, which buttons lit), so a missed
update can never leave a stale light on.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Iterable

from gpiozero import LED, DigitalInputDevice

from drivers.events import ButtonPressed

log = logging.getLogger(__name__)

BUTTONS = ("deal", "void", "shuffle_ack", "pass")
"""The dealer's buttons: no more bets / deal, void the round, shuffle done,
pass the player-dealer position."""

DEVICE = "buttons"


class TableGpio:
    """The table's buttons and lights. ``close()`` releases every pin."""

    def __init__(
        self,
        inbox: queue.Queue,
        *,
        buttons: dict[str, int],
        button_leds: dict[str, int],
        action_lights: dict[int, int],
        player_dealer_lights: dict[int, int],
        bounce_time: float | None = None,
    ) -> None:
        self._check_pins(buttons, button_leds, action_lights, player_dealer_lights)
        unknown = sorted(set(button_leds) - set(buttons))
        if unknown:
            raise ValueError(f"button lights for buttons that do not exist: {unknown}")
        self.inbox = inbox
        self._buttons: dict[str, DigitalInputDevice] = {}
        self._button_leds: dict[str, LED] = {}
        self._action: dict[int, LED] = {}
        self._player_dealer: dict[int, LED] = {}
        try:
            for name, pin in buttons.items():
                # A Button without its hold detection: gpiozero's Button runs a thread per
                # button that wakes ten times a second to look for a hold (HoldThread),
                # three quarters of an idle table's CPU (`tablectl bench`, footprint); we
                # never use holds. Same wiring as Button: pulled up, pressed = pulled low.
                button = DigitalInputDevice(pin, pull_up=True, bounce_time=bounce_time)
                button.when_activated = self._pressed_callback(name)
                self._buttons[name] = button
            self._button_leds = {name: LED(pin) for name, pin in button_leds.items()}
            self._action = {seat: LED(pin) for seat, pin in action_lights.items()}
            self._player_dealer = {seat: LED(pin) for seat, pin in player_dealer_lights.items()}
        except Exception:
            self.close()
            raise

    @staticmethod
    def _check_pins(*maps: dict) -> None:
        """One pin, one use: say which two uses collide, not just "pin in use"."""
        seen: dict[int, str] = {}
        names = ("button", "button light", "action light", "player-dealer light")
        for kind, mapping in zip(names, maps, strict=True):
            for key, pin in mapping.items():
                use = f"{kind} {key!r}"
                if pin in seen:
                    raise ValueError(f"GPIO pin {pin} assigned twice: {seen[pin]} and {use}")
                seen[pin] = use

    def _pressed_callback(self, name: str):
        def pressed() -> None:
            # gpiozero's thread: hand over and return, nothing else.
            self.inbox.put(ButtonPressed(DEVICE, name))
        return pressed

    def show(self, action_seat: int | None, player_dealer_seat: int | None,
             buttons_lit: Iterable[str]) -> list[str]:
        """Set every light to this picture. Returns what could not be shown
        (a seat or button with no light), for the caller to raise an alarm;
        it does not raise, because a light is never worth stopping a table."""
        lit = set(buttons_lit)
        problems: list[str] = []
        for seat, led in self._action.items():
            led.value = seat == action_seat
        if action_seat is not None and action_seat not in self._action:
            problems.append(f"seat {action_seat} has no action light")
        for seat, led in self._player_dealer.items():
            led.value = seat == player_dealer_seat
        if player_dealer_seat is not None and player_dealer_seat not in self._player_dealer:
            problems.append(f"seat {player_dealer_seat} has no player-dealer light")
        for name, led in self._button_leds.items():
            led.value = name in lit
        problems += [f"button {name!r} has no light" for name in sorted(lit - set(self._button_leds))]
        for problem in problems:
            log.warning("lights: %s", problem)
        return problems

    def lit(self) -> dict[str, object]:
        """What the lights show now (for tests and the state topic)."""
        return {
            "action_seat": next((s for s, led in self._action.items() if led.is_lit), None),
            "player_dealer_seat": next((s for s, led in self._player_dealer.items() if led.is_lit), None),
            "buttons_lit": sorted(n for n, led in self._button_leds.items() if led.is_lit),
        }

    def close(self) -> None:
        for group in (self._buttons, self._button_leds, self._action, self._player_dealer):
            for device in group.values():
                device.close()
            group.clear()

    def __enter__(self) -> TableGpio:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
