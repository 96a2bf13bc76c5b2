"""Buttons and lights on gpiozero's mock pins (as gpiozero's own tests/conftest.py does)."""

from __future__ import annotations

import queue

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from drivers.events import ButtonPressed
from drivers.gpio import TableGpio

BUTTON_PINS = {"deal": 5, "void": 6, "shuffle_ack": 13, "pass": 19}
BUTTON_LEDS = {"deal": 12, "void": 16, "shuffle_ack": 20, "pass": 21}
ACTION = {1: 17, 2: 27, 3: 22}
PLAYER_DEALER = {1: 23, 2: 24, 3: 25}
PLAY = {1: 2, 2: 3}
FOLD = {1: 4, 2: 7}


@pytest.fixture
def mock_factory():
    save = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = save


@pytest.fixture
def gpio(mock_factory):
    inbox: queue.Queue = queue.Queue()
    table = TableGpio(inbox, buttons=BUTTON_PINS, button_leds=BUTTON_LEDS,
                      seat_lights={"action": ACTION, "player_dealer": PLAYER_DEALER},
                      seat_buttons={"play": PLAY, "fold": FOLD})
    yield table, inbox
    table.close()


def _press(factory, pin: int) -> None:
    p = factory.pin(pin)
    p.drive_low()                 # pressed (buttons pull up)
    p.drive_high()


def test_press_puts_button_pressed_on_the_inbox(gpio, mock_factory):
    _, inbox = gpio
    for name, pin in BUTTON_PINS.items():
        _press(mock_factory, pin)
        assert inbox.get(timeout=1) == ButtonPressed("buttons", name)
        assert inbox.empty()            # release is not a press


def test_a_seat_button_press_names_its_seat(gpio, mock_factory):
    """Players' decisions come from per-seat buttons: the press carries the seat."""
    _, inbox = gpio
    _press(mock_factory, FOLD[2])
    _press(mock_factory, PLAY[1])
    assert [inbox.get(timeout=1), inbox.get(timeout=1)] == [ButtonPressed("buttons", "fold", 2),
                                                            ButtonPressed("buttons", "play", 1)]


def test_show_lights_exactly_the_right_pins(gpio, mock_factory):
    table, _ = gpio
    assert table.show({"seats": {"action": [2], "player_dealer": [3]}, "buttons_lit": ["deal", "void"]}) == []
    state = {pin: mock_factory.pin(pin).state for pin in [*ACTION.values(), *PLAYER_DEALER.values(),
                                                          *BUTTON_LEDS.values()]}
    lit = {pin for pin, value in state.items() if value}
    assert lit == {ACTION[2], PLAYER_DEALER[3], BUTTON_LEDS["deal"], BUTTON_LEDS["void"]}
    assert table.lit() == {"seats": {"action": [2], "player_dealer": [3]}, "buttons_lit": ["deal", "void"]}

    table.show({"seats": {"action": [], "player_dealer": [1]}, "buttons_lit": []})
    assert not any(mock_factory.pin(p).state for p in [*ACTION.values(), *BUTTON_LEDS.values()])
    assert mock_factory.pin(PLAYER_DEALER[1]).state and not mock_factory.pin(PLAYER_DEALER[3]).state


def test_show_reports_what_it_cannot_light(gpio):
    table, _ = gpio
    problems = table.show({"seats": {"action": [9], "turn": [1]}, "buttons_lit": ["deal", "fold"]})
    assert problems == ["seat 9 has no action light", "seat 1 has no turn light", "button 'fold' has no light"]
    assert table.lit()["buttons_lit"] == ["deal"]


def test_pin_used_twice_is_a_clear_error(mock_factory):
    with pytest.raises(ValueError, match="GPIO pin 5 assigned twice: button 'deal' and action light of seat 1"):
        TableGpio(queue.Queue(), buttons={"deal": 5}, button_leds={}, seat_lights={"action": {1: 5}})
    with pytest.raises(ValueError, match="GPIO pin 7 assigned twice: play button of seat 1 and fold button of seat 2"):
        TableGpio(queue.Queue(), buttons={}, button_leds={}, seat_lights={},
                  seat_buttons={"play": {1: 7}, "fold": {2: 7}})


def test_close_releases_the_pins(mock_factory):
    table = TableGpio(queue.Queue(), buttons={"deal": 5}, button_leds={"deal": 12}, seat_lights={},
                      seat_buttons={"play": {1: 6}})
    table.close()
    again = TableGpio(queue.Queue(), buttons={"deal": 5}, button_leds={"deal": 12}, seat_lights={},
                      seat_buttons={"play": {1: 6}})
    again.close()
