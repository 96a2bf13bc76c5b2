"""The simulated dice cup sends docs/protocols.md's golden reports, read through pyusb's real
usb.core on the simulator's backend, and answers the control requests with the golden bytes."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
import usb.core
import usb.util

from drivers import dice_report as codec
from hw_sim.dice_cup import SimDiceCup
from hw_sim.usb_backend import SimUsbBus

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocols.md"
_block = DOC.read_text().split("<!-- dice-golden:start -->")[1].split("<!-- dice-golden:end -->")[0]
GOLDEN = {m[0]: bytes.fromhex(m[1]) for m in re.findall(r"^\| `(\w+)` \|.*\| `([0-9a-f ]+)` \|$", _block, re.M)}
_buses = itertools.count(1)


@pytest.fixture
def cup():
    bus = SimUsbBus(f"golden-{next(_buses)}").register()
    device = bus.attach(SimDiceCup(dice=3, seed=0))
    dev = usb.core.find(idVendor=0x1209, idProduct=0xD1CE, backend=bus)
    assert dev is not None
    yield device, dev
    usb.util.dispose_resources(dev)
    bus.unregister()


def _status(dev) -> bytes:
    return bytes(dev.ctrl_transfer(codec.REQUEST_IN, codec.GET_STATUS, 0, 0, codec.STATUS_SIZE))


def test_the_session_of_the_golden_table(cup) -> None:
    device, dev = cup
    assert _status(dev) == GOLDEN["status_new"]
    assert bytes(dev.ctrl_transfer(codec.REQUEST_IN, codec.SELF_TEST, 0, 0, 2)) == GOLDEN["self_test_passed"]
    device.shake((6, 2, 3))
    device.inject("die_on_edge", die=2)
    device.shake()
    device.inject("die_unreadable", die=1)
    device.shake()
    device.inject("lifted_early")
    device.shake()
    device.shake((7, 2, 3))            # the cup misreads its first die
    stream = [bytes(dev.read(0x81, 16, timeout=1000)) for _ in range(14)]
    with pytest.raises(usb.core.USBTimeoutError):
        dev.read(0x81, 16, timeout=20)  # 14 reports and no more
    order = ["shaken", "opened", "closed", "fault_die_on_edge", "fault_die_unreadable", "fault_lifted_early",
             "opened_misread"]
    assert [stream[i] for i in (0, 1, 2, 4, 7, 9, 12)] == [GOLDEN[name] for name in order]
    assert [codec.decode(r).report.seq for r in stream] == list(range(14))
    assert _status(dev) == GOLDEN["status_after"]
    device.inject("self_test_fails", dice=(2,))
    assert bytes(dev.ctrl_transfer(codec.REQUEST_IN, codec.SELF_TEST, 0, 0, 2)) == GOLDEN["self_test_die_2"]


def test_descriptors_are_read_through_pyusb(cup) -> None:
    device, dev = cup
    assert (dev.idVendor, dev.idProduct, dev.bcdDevice, dev.bNumConfigurations) == (0x1209, 0xD1CE, 0x0100, 1)
    assert (dev.manufacturer, dev.product, dev.serial_number) == ("tablectl sim", "SIMCUP", "SIMCUP-0001")
    config = dev.get_active_configuration()
    assert (config.bConfigurationValue, config.wTotalLength, config.bMaxPower) == (1, 25, 50)
    interface = config[(0, 0)]
    assert (interface.bInterfaceClass, interface.bNumEndpoints) == (0xFF, 1)
    endpoint = interface[0]
    assert (endpoint.bEndpointAddress, endpoint.bmAttributes, endpoint.wMaxPacketSize, endpoint.bInterval) == (
        0x81, 0x03, 16, 10)
    # a standard GET_DESCRIPTOR returns the same bytes the backend parsed
    assert bytes(dev.ctrl_transfer(0x80, 6, 0x0100, 0, 18)) == device.device_descriptor()
    assert bytes(dev.ctrl_transfer(0x80, 6, 0x0200, 0, 255)) == device.configuration_descriptor()


def test_a_request_the_cup_does_not_know_is_stalled(cup) -> None:
    _device, dev = cup
    with pytest.raises(usb.core.USBError) as caught:
        dev.ctrl_transfer(codec.REQUEST_IN, 0x7F, 0, 0, 8)
    assert caught.value.errno == 32  # EPIPE
