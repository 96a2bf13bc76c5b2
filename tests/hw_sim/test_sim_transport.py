"""The simulator's cables: a raw pty pair and the in-process hwsim:// line."""

from __future__ import annotations

import os
import termios
import threading
import time

import pytest
import serial

from hw_sim import transport


def read_in_thread(port, size: int = 1):
    """Start a blocking read; returns (done event, result box)."""
    done, box = threading.Event(), {}

    def run() -> None:
        try:
            box["data"] = port.read(size)
        except Exception as exc:  # the test inspects it
            box["error"] = exc
        done.set()

    threading.Thread(target=run, daemon=True).start()
    return done, box


def test_bytes_flow_both_ways(line):
    device, url = line
    device.timeout = 2
    ctl = serial.serial_for_url(url, baudrate=115200, timeout=2)
    try:
        ctl.write(b"\x02\x03hello\x00\x11\x13")      # raw: no echo, no XON/XOFF, no translation
        got = b""
        while len(got) < 10:
            got += device.read(10 - len(got))
        assert got == b"\x02\x03hello\x00\x11\x13"
        device.write(b"\r\nback\x7f")
        assert ctl.read(7) == b"\r\nback\x7f"
        assert ctl.in_waiting == 0 and device.in_waiting == 0
    finally:
        ctl.close()


def test_pty_is_raw_on_both_ends(tmp_path):
    with transport.open_pty(str(tmp_path / "tty0")) as port:
        assert os.path.realpath(port.path) == port.device
        fd = os.open(port.device, os.O_RDWR | os.O_NOCTTY)
        try:
            lflag = termios.tcgetattr(fd)[3]
            assert not lflag & (termios.ECHO | termios.ICANON | termios.ISIG)
        finally:
            os.close(fd)
    assert not os.path.lexists(tmp_path / "tty0")


def test_unplug_makes_the_controller_read_raise_at_once(line):
    device, url = line
    ctl = serial.serial_for_url(url, baudrate=115200, timeout=10)
    try:
        done, box = read_in_thread(ctl)
        device.close()
        assert done.wait(2), "controller read still blocked after the device end closed"
        assert isinstance(box.get("error"), serial.SerialException)
    finally:
        ctl.close()


def test_controller_close_makes_the_hwsim_device_read_return(hwsim_line):
    device, url = hwsim_line
    ctl = serial.serial_for_url(url, timeout=1)
    done, box = read_in_thread(device, 10)
    ctl.close()
    assert done.wait(2)
    assert box == {"data": b""}
    assert not device.attached


def test_cancel_read_wakes_a_device_read(line):
    device, _ = line
    done, box = read_in_thread(device)
    device.cancel_read()
    assert done.wait(2)
    assert box == {"data": b""}


def test_hwsim_controller_may_close_and_reopen(hwsim_line):
    """A controller restart: the device's port lives on, a new connection works."""
    device, url = hwsim_line
    device.timeout = 2
    for round_ in range(3):
        ctl = serial.serial_for_url(url, timeout=2)
        ctl.write(bytes([round_]))
        assert device.read(1) == bytes([round_])
        device.write(b"ok")
        assert ctl.read(2) == b"ok"
        ctl.close()


def test_hwsim_writes_with_nobody_attached_go_nowhere(hwsim_line):
    device, url = hwsim_line
    assert device.write(b"into the void") == 13
    ctl = serial.serial_for_url(url, timeout=0.05)
    assert ctl.read(100) == b""
    ctl.close()


def test_hwsim_open_errors(hwsim_line):
    device, url = hwsim_line
    with pytest.raises(serial.SerialException, match="no such simulated device"):
        serial.serial_for_url("hwsim://nobody-here")
    ctl = serial.serial_for_url(url)
    with pytest.raises(serial.SerialException, match="busy"):
        serial.serial_for_url(url)
    ctl.close()
    with pytest.raises(ValueError, match="already plugged in"):
        transport.hwsim_port(device.name)


def test_replug_reuses_the_address(line):
    device, url = line
    again = device.reopen()
    try:
        ctl = serial.serial_for_url(url, timeout=2)
        again.write(b"x")
        assert ctl.read(1) == b"x"
        ctl.close()
    finally:
        again.close()


def test_pty_write_with_nobody_reading_does_not_hang(tmp_path):
    with transport.open_pty() as port:
        port.write_timeout = 0.1
        started = time.monotonic()
        written = port.write(bytes(1 << 20))
        assert time.monotonic() - started < 2
        assert written < 1 << 20
