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
    cup.inject("lose_reports", count=5)                # seqs 0-4 lost on the way: 5 where 0 was due
    cup.shake((1, 2, 3))
    assert rig.take(2) == [DeviceFault("cup", "reports_lost", "5 report(s) lost (seq 5 after 255)"), CupShaken("cup")]
    assert driver.stats["reports_lost"] == 5


def test_a_repeated_report_is_a_duplicate_set_aside_not_255_lost(rig: Rig) -> None:
    """Issue 23.4: the cup sends its last report again (hw_sim repeat_report): the same seq twice is a
    duplicate, named and set aside, never "(seq - last - 1) mod 256 = 255 report(s) lost"."""
    cup = rig.cup()
    driver = rig.driver()
    rig.next()
    cup.shake((6, 1, 2))                                 # seqs 0, 1, 2
    assert rig.take(3) == [CupShaken("cup"), DiceRead("cup", (6, 1, 2)), CupClosed("cup")]
    cup.inject("repeat_report")
    assert cup.sent[-1] == cup.sent[-2] == codec.closed(2)
    assert rig.next() == DeviceFault("cup", "duplicate_report", "report seq 2 came twice: the second is set aside")
    cup.shake((3, 3, 4))                                 # seqs 3, 4, 5 follow on: no gap
    assert rig.take(3) == [CupShaken("cup"), DiceRead("cup", (3, 3, 4)), CupClosed("cup")]
    assert driver.stats["duplicate_report"] == 1 and driver.stats["reports_lost"] == 0


def test_an_earlier_report_sent_again_is_stale_set_aside_and_the_sequence_goes_on(rig: Rig) -> None:
    """Issue 23.4: a report from three back (hw_sim stale_report: seq 0 after 2) is an earlier report
    out of order, named and set aside: not "255 lost", not a reading (the old throw is not taken
    again), and the driver's last seq stays at 2, so the next real report (seq 3) raises no second
    "reports lost" as it did when the stale seq moved it back."""
    cup = rig.cup()
    driver = rig.driver()
    rig.next()
    cup.shake((6, 1, 2))                                 # seqs 0, 1, 2
    rig.take(3)
    cup.inject("stale_report")
    assert cup.sent[-1] == codec.shaken(0)
    assert rig.next() == DeviceFault("cup", "stale_report", "report seq 0 after 2: an earlier report sent again, "
                                                            "out of order; set aside")
    cup.inject("stale_report", back=3)                   # the reading itself, from three back now
    assert cup.sent[-1] == codec.opened(1, (6, 1, 2))
    assert rig.next() == DeviceFault("cup", "stale_report", "report seq 1 after 2: an earlier report sent again, "
                                                            "out of order; set aside")
    cup.shake((5, 4, 4))                                 # seqs 3, 4, 5
    assert rig.take(3) == [CupShaken("cup"), DiceRead("cup", (5, 4, 4)), CupClosed("cup")]
    rig.quiet()
    assert driver.stats["stale_report"] == 2 and driver.stats["reports_lost"] == 0


def test_an_old_throw_replayed_whole_is_never_the_current_throw(rig: Rig) -> None:
    """A whole old throw (shaken, opened, closed: seqs 0-2) sent again after seq 5 is three stale
    reports: none reaches the table as a shake or a reading."""
    cup = rig.cup()
    rig.driver()
    rig.next()
    cup.shake((6, 6, 6))                                 # seqs 0, 1, 2
    cup.shake((1, 2, 3))                                 # seqs 3, 4, 5
    rig.take(6)
    for old in cup.sent[:3]:
        cup.inject("malformed_report", data=old)         # the same bytes, out of order
    assert [e.code for e in rig.take(3)] == ["stale_report"] * 3    # type: ignore[attr-defined]
    rig.quiet()


def test_a_report_of_an_earlier_session_sent_again_is_stale_not_a_gap(rig: Rig) -> None:
    """After a replug the cup counts from 0 again; a report of the session before (seq 4, the reading
    of the second throw) sent again is a step forward from the hello's 255, but the cup's counter
    (0) shows it has not sent seq 4 in this session: an earlier report, set aside -- not 4 reports
    lost and an old throw taken as the current one."""
    cup = rig.cup()
    driver = rig.driver()
    rig.next()
    cup.shake((2, 2, 2))                                 # seqs 0, 1, 2
    cup.shake((6, 6, 5))                                 # seqs 3, 4, 5
    rig.take(6)
    cup.unplug()
    cup.replug()
    assert isinstance(rig.next(), DeviceOffline) and isinstance(rig.next(), DeviceOnline)
    cup.inject("malformed_report", data=cup.sent[4])    # opened (6, 6, 5), seq 4
    assert rig.next() == DeviceFault("cup", "stale_report", "report seq 4 after 255: an earlier report sent again, "
                                                            "out of order; set aside")
    cup.shake((1, 3, 5))                                 # seqs 0, 1, 2 of the new session
    assert rig.take(3) == [CupShaken("cup"), DiceRead("cup", (1, 3, 5)), CupClosed("cup")]
    assert driver.stats["stale_report"] == 1 and driver.stats["reports_lost"] == 0


def test_a_cup_whose_sequence_starts_again_is_named_restarted_and_followed(rig: Rig) -> None:
    """A step back that the cup's own status confirms (its next seq is just after the report, behind the
    last one read) is a restart, not a replay: named restarted (alarm cup_restarted), the report taken, and the new
    sequence followed on."""
    cup = rig.cup()
    driver = rig.driver()
    rig.next()
    cup.shake((2, 2, 2))                                 # seqs 0, 1, 2
    cup.shake((3, 3, 3))                                 # seqs 3, 4, 5
    rig.take(6)
    with cup._cond:                                     # the firmware restarts in place: its counter from 0
        cup._seq = 0
    cup.shake((4, 5, 6))                                 # seqs 0, 1, 2 again
    assert rig.take(4) == [DeviceFault("cup", "restarted", "report seq 0 after 5: the cup's sequence started "
                                                               "again (it restarted); what it had not sent is lost"),
                           CupShaken("cup"), DiceRead("cup", (4, 5, 6)), CupClosed("cup")]
    rig.quiet()
    assert driver.stats["restarted"] == 1


def test_a_damaged_report_takes_its_seq_with_it_and_no_loss_is_reported(rig: Rig) -> None:
    """A reading damaged on its way (broken CRC) is one report whose seq could not be read: the next
    good report, two on, is no loss; a gap beyond the damaged reports still is one."""
    cup = rig.cup()
    driver = rig.driver()
    rig.next()
    cup.inject("malformed_report")
    cup.shake((5, 5, 5))                                 # seqs 0, 1 (damaged), 2
    assert rig.take(3) == [CupShaken("cup"), DeviceFault("cup", "bad_report", "bad_crc: the report's CRC does not "
                                                                              "match"), CupClosed("cup")]
    cup.inject("lose_reports", count=3)                # seqs 3, 4, 5 never came
    cup.shake((1, 1, 1))
    assert rig.take(2) == [DeviceFault("cup", "reports_lost", "3 report(s) lost (seq 6 after 2)"), CupShaken("cup")]
    assert driver.stats["reports_lost"] == 3


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
