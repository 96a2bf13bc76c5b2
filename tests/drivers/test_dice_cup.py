"""The dice cup's pyusb driver against the simulator's pyusb backend: pyusb's real usb.core
(find, descriptors, string descriptors, interrupt reads, control transfers, clear halt) runs
unchanged; only the bus under it is simulated. Enumeration, reports, every fault, replug.

Every test runs twice: on the bus registered in this process (``hwsim://``), and on the same bus
served on a Unix socket (hw_sim.usb_socket) and reached through drivers.usb_socket's backend
(``unix:/PATH``), as ``tablectl run`` reaches ``tablectl sim``'s cup from another process."""

from __future__ import annotations

import itertools
import queue
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import usb.core
import usb.util

from drivers import dice_report as codec
from drivers.dice_cup import DiceCupDriver
from drivers.events import (
    CupClosed,
    CupShaken,
    DeviceEvent,
    DeviceFault,
    DeviceOffline,
    DeviceOnline,
    DiceRead,
)
from drivers.kinds import open_driver
from drivers.usb_socket import UnixSocketBackend
from hw_sim.dice_cup import PRODUCT_ID, VENDOR_ID, SimDiceCup, loaded_weights
from hw_sim.usb_backend import SimUsbBus
from hw_sim.usb_socket import UsbSocketServer

_buses = itertools.count(1)
WAIT = 5.0


class Rig:
    """A bus with cups, and drivers reading them into one inbox; ``transport`` ``unix`` serves the
    bus on a Unix socket and the drivers reach it through ``unix:/PATH``."""

    def __init__(self, transport: str = "hwsim") -> None:
        self.bus = SimUsbBus(f"drv-{next(_buses)}").register()
        self.inbox: queue.Queue = queue.Queue()
        self.drivers: list[DiceCupDriver] = []
        self.server: UsbSocketServer | None = None
        self.url = self.bus.url
        self.tmp: str | None = None
        if transport == "unix":
            self.tmp = tempfile.mkdtemp(prefix="tc-usb-", dir="/tmp")   # a socket's path holds 107 bytes
            self.server = UsbSocketServer(self.bus, str(Path(self.tmp) / "cup.sock")).start()
            self.url = self.server.url

    def other_program(self) -> Any:
        """The backend another program finds the cup through (its own connection, for a socket)."""
        return self.bus if self.server is None else UnixSocketBackend(self.server.path)

    def cup(self, **kw) -> SimDiceCup:
        return self.bus.attach(SimDiceCup(**kw))

    def driver(self, **kw) -> DiceCupDriver:
        settings = {"vendor_id": VENDOR_ID, "product_id": PRODUCT_ID, "backend": self.url,
                    "read_timeout": 0.05, **kw}
        driver = DiceCupDriver("cup", self.inbox, **settings)
        self.drivers.append(driver)
        driver.start()
        return driver

    def next(self) -> DeviceEvent:
        return self.inbox.get(timeout=WAIT)

    def take(self, n: int) -> list[DeviceEvent]:
        return [self.next() for _ in range(n)]

    def quiet(self, seconds: float = 0.2) -> None:
        with pytest.raises(queue.Empty):
            extra = self.inbox.get(timeout=seconds)
            print("unexpected", extra)

    def close(self) -> None:
        for d in self.drivers:
            d.stop()
        if self.server is not None:
            self.server.stop()
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)
        self.bus.unregister()


@pytest.fixture(params=["hwsim", "unix"])
def rig(request) -> Iterator[Rig]:
    r = Rig(request.param)
    yield r
    r.close()


def test_found_by_its_ids_it_says_hello_with_its_serial(rig: Rig) -> None:
    rig.cup(serial="CUP-7")
    driver = rig.driver()
    assert rig.next() == DeviceOnline("cup", "SIMCUP 1.0", serial="CUP-7")
    assert driver.alive and driver.synced
    assert driver.last_status == codec.CupStatus(1, 3, "closed", None, "1.0", 0)
    assert driver.status().dice == 3        # a control request from another thread while it reads
    assert driver.self_test() == codec.SelfTest(True, ())
    rig.quiet()


def test_a_throw_is_shaken_read_closed(rig: Rig) -> None:
    cup = rig.cup()
    driver = rig.driver()
    rig.next()
    cup.shake((6, 2, 3))
    assert rig.take(3) == [CupShaken("cup"), DiceRead("cup", (6, 2, 3)), CupClosed("cup")]
    cup.shake((1, 1, 5))
    assert rig.take(3)[1] == DiceRead("cup", (1, 1, 5))
    assert driver.stats["reports"] == 6 and driver.stats["bad_report"] == 0


def test_rolled_dice_follow_each_die_s_weights(rig: Rig) -> None:
    cup = rig.cup(dice=2, seed=11, weights=[loaded_weights(6, 1000.0)])
    rig.driver(dice=2)
    rig.next()
    for _ in range(20):
        cup.shake()
    reads = [e.values for e in rig.take(60) if isinstance(e, DiceRead)]
    assert len(reads) == 20 and all(v[0] == 6 for v in reads) and len({v[1] for v in reads}) > 1


def test_wrong_ids_find_nothing_and_say_so_once(rig: Rig) -> None:
    rig.cup()
    driver = rig.driver(product_id=0xFFFF)
    assert rig.next() == DeviceOffline("cup", "no USB device 1209:ffff is connected")
    rig.quiet(0.4)     # it keeps looking, but says it once
    assert not driver.alive and not driver.synced
    rig.bus.attach(SimDiceCup(product_id=0xFFFF, serial="LATE"))   # plugged in later: found
    assert rig.next() == DeviceOnline("cup", "SIMCUP 1.0", serial="LATE")


def test_the_serial_picks_one_cup_of_several(rig: Rig) -> None:
    rig.cup(serial="A-1")
    second = rig.cup(serial="B-2")
    rig.driver(serial="B-2")
    assert rig.next() == DeviceOnline("cup", "SIMCUP 1.0", serial="B-2")
    second.shake((4, 4, 4))
    assert rig.take(3)[1] == DiceRead("cup", (4, 4, 4))


def test_no_cup_with_that_serial(rig: Rig) -> None:
    rig.cup(serial="A-1")
    rig.driver(serial="Z-9")
    assert rig.next() == DeviceOffline("cup", "no USB device 1209:d1ce serial Z-9 is connected")


def test_a_backend_nobody_registered_is_named(rig: Rig) -> None:
    rig.driver(backend="hwsim://nowhere")
    event = rig.next()
    assert isinstance(event, DeviceOffline)
    assert event.reason.startswith("no USB backend 'hwsim://nowhere': pyusb's are libusb1, libusb0, openusb")


def test_the_cup_s_own_faults(rig: Rig) -> None:
    cup = rig.cup()
    rig.driver()
    rig.next()
    cup.inject("die_on_edge", die=2)
    cup.shake()
    assert rig.take(3) == [CupShaken("cup"), DeviceFault("cup", "die_on_edge", "a die landed on its edge (die 2)"),
                           CupClosed("cup")]
    cup.inject("die_unreadable", die=3)
    cup.shake()
    assert rig.take(3)[1] == DeviceFault("cup", "die_unreadable", "the cup could not read a die (die 3)")
    cup.inject("lifted_early")
    cup.shake()
    assert rig.take(2) == [DeviceFault("cup", "lifted_early", "the cup was lifted before the shake ended"),
                           CupClosed("cup")]
    rig.quiet()


def test_a_malformed_report_is_counted_reported_and_read_past(rig: Rig) -> None:
    cup = rig.cup()
    driver = rig.driver()
    rig.next()
    cup.inject("malformed_report")          # the next shake's reading goes out with a broken CRC
    cup.shake((5, 5, 5))
    assert rig.take(3) == [CupShaken("cup"), DeviceFault("cup", "bad_report", "bad_crc: the report's CRC does not match"),
                           CupClosed("cup")]
    cup.inject("malformed_report", data=b"\xd1\x00\x01")   # 3 bytes now
    assert rig.next() == DeviceFault("cup", "bad_report", "bad_length: 3 bytes, a report is 16")
    cup.shake((2, 3, 4))
    assert rig.take(3)[1] == DiceRead("cup", (2, 3, 4)), "the reader goes on, and no seq gap is reported twice"
    assert driver.stats["bad_report"] == 2 and driver.stats["bad_crc"] == 1 and driver.stats["bad_length"] == 1
    assert driver.alive


def test_a_gap_in_the_sequence_is_reported(rig: Rig) -> None:
    cup = rig.cup()
    driver = rig.driver()
    rig.next()
    cup.inject("malformed_report", data=codec.shaken(5))   # a good report, but seq 5 where 0 was due
    assert rig.take(2) == [DeviceFault("cup", "reports_lost", "5 report(s) lost (seq 5 after 255)"), CupShaken("cup")]
    assert driver.stats["reports_lost"] == 5


def test_a_repeated_and_an_out_of_order_report_reach_the_driver_as_sent(rig: Rig) -> None:
    # hw_sim's repeat_report and stale_report (the battery of tests/e2e/test_dice_battery_e2e.py): the
    # cup sends the same bytes again, and a report from three back; the seq shows each (reports_lost).
    cup = rig.cup()
    rig.driver()
    rig.next()
    cup.shake((6, 1, 2))
    assert rig.take(3) == [CupShaken("cup"), DiceRead("cup", (6, 1, 2)), CupClosed("cup")]
    cup.inject("repeat_report")
    assert cup.sent[-1] == cup.sent[-2]
    fault, again = rig.take(2)
    assert isinstance(fault, DeviceFault) and fault.code == "reports_lost" and again == CupClosed("cup")
    cup.inject("stale_report")
    assert cup.sent[-1] == cup.sent[-4] == codec.opened(1, (6, 1, 2))
    fault, old = rig.take(2)
    assert isinstance(fault, DeviceFault) and fault.code == "reports_lost" and old == DiceRead("cup", (6, 1, 2))


def test_a_stalled_endpoint_is_cleared_and_nothing_is_lost(rig: Rig) -> None:
    cup = rig.cup()
    driver = rig.driver()
    rig.next()
    cup.inject("stall")
    cup.shake((3, 1, 4))
    assert rig.take(4) == [DeviceFault("cup", "stall", "endpoint 0x81 stalled; the driver cleared it"),
                           CupShaken("cup"), DiceRead("cup", (3, 1, 4)), CupClosed("cup")]
    assert driver.stats["stall"] == 1 and driver.alive


def test_unplug_and_replug(rig: Rig) -> None:
    cup = rig.cup(serial="CUP-1")
    driver = rig.driver(reconnect_max=0.2)
    rig.next()
    cup.shake((1, 2, 3))
    rig.take(3)
    cup.unplug()
    assert rig.next() == DeviceOffline("cup", "unplugged")
    assert not driver.alive
    cup.shake((6, 6, 6))                   # shaken unplugged: nothing
    rig.quiet(0.5)                         # looking for it meanwhile, silently
    assert cup.dead
    cup.replug()
    assert rig.next() == DeviceOnline("cup", "SIMCUP 1.0", serial="CUP-1")
    assert driver.alive and not cup.dead   # the controller opened it again: the dealer may shake
    cup.shake((2, 2, 2))
    assert rig.take(3) == [CupShaken("cup"), DiceRead("cup", (2, 2, 2)), CupClosed("cup")], \
        "the sequence starts again at 0 after a replug: no gap reported"
    assert driver.stats["offline"] == 1 and driver.stats["opened"] == 2


def test_another_program_holding_the_interface(rig: Rig) -> None:
    rig.cup()
    other = usb.core.find(idVendor=VENDOR_ID, idProduct=PRODUCT_ID, backend=rig.other_program())
    usb.util.claim_interface(other, 0)
    rig.driver(reconnect_max=0.1)
    assert rig.next() == DeviceOffline("cup", "cannot claim the cup: another program holds its interface")
    usb.util.dispose_resources(other)      # it lets go: the driver gets the cup on its next try
    assert rig.next() == DeviceOnline("cup", "SIMCUP 1.0", serial="SIMCUP-0001")


def test_a_cup_with_other_dice_than_the_config_and_a_failed_self_test(rig: Rig) -> None:
    cup = rig.cup(dice=2)
    cup.inject("self_test_fails", dice=(2,))
    rig.driver(dice=3)
    assert rig.take(3) == [
        DeviceOnline("cup", "SIMCUP 1.0", serial="SIMCUP-0001"),
        DeviceFault("cup", "wrong_dice", "the cup reports 2 dice; [devices.cup] dice = 3"),
        DeviceFault("cup", "self_test", "self-test failed: die 2"),
    ]


def test_stop_releases_the_cup(rig: Rig) -> None:
    cup = rig.cup()
    driver = rig.driver()
    rig.next()
    driver.stop()
    assert not driver.alive and driver._thread is not None and not driver._thread.is_alive()
    assert cup.claimed_by is None
    again = usb.core.find(idVendor=VENDOR_ID, idProduct=PRODUCT_ID, backend=rig.other_program())
    usb.util.claim_interface(again, 0)     # another program may claim it now
    usb.util.dispose_resources(again)


def test_the_kind_opens_the_driver_from_config_settings(rig: Rig) -> None:
    cup = rig.cup(dice=2)
    driver = open_driver("cup", "dice_cup", {"vendor_id": VENDOR_ID, "product_id": PRODUCT_ID, "dice": 2,
                                             "backend": rig.url, "read_timeout": 0.05, "baudrate": 115200,
                                             "heartbeat_timeout": 3.0}, rig.inbox)
    assert isinstance(driver, DiceCupDriver) and driver.dice == 2
    rig.drivers.append(driver)
    driver.start()
    assert isinstance(rig.next(), DeviceOnline)
    cup.shake((3, 4))
    assert rig.take(3)[1] == DiceRead("cup", (3, 4))
