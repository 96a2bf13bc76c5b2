"""The USB dice cup, driven through pyusb (docs/protocols.md, "Dice cup (USB)").

One reader thread per cup owns the device: it finds the cup by vendor and product id (and
serial, where the config names one) through the backend the config names
(:mod:`drivers.usb_backends`), claims its interface, asks its status and runs its self-test
(control requests), then blocks on the interrupt-IN endpoint and turns every report into an
inbox event (:mod:`drivers.dice_report`). A read blocks for at most ``read_timeout`` so that
the thread notices :meth:`DiceCupDriver.stop`; nothing polls the table's event path.

Faults, and what the driver does about each:
- a report that does not decode (length, id, CRC, type): counted in :attr:`stats` and put on
  the inbox as ``DeviceFault(bad_report)`` with the reason; the reader goes on;
- the report sequence (a seq per report, mod 256), read as a step from the last good report:
  one ahead is the next report; further ahead is a gap, ``DeviceFault(reports_lost)`` naming
  how many (less the damaged reports since, whose own seqs could not be read); the same seq
  again is a duplicate, set aside, ``DeviceFault(duplicate_report)``; a step back is either an
  earlier report sent again out of order, set aside, ``DeviceFault(stale_report)`` (an old throw
  replayed whole is never taken for the current one), or the cup's counter starting again,
  ``DeviceFault(restarted)`` and the report taken as the new sequence's -- the cup's status
  says which (its next seq is behind the last report read only if it restarted). A report set
  aside leaves the last seq where it was, so the next real report follows on without a gap;
- a stalled endpoint (EPIPE): ``DeviceFault(stall)``, the halt is cleared, the reader goes on
  (the cup keeps a report until it is read, so nothing is lost);
- the cup unplugged (ENODEV, or any other transfer error): ``DeviceOffline``, the device is
  released, and the thread looks for it again with a backoff from ``reconnect_min`` doubling
  to ``reconnect_max`` seconds (as a serial line reopens); found again: ``DeviceOnline``;
- a status that does not say the configured number of dice: ``DeviceFault(wrong_dice)``; a
  failed self-test: ``DeviceFault(self_test)``.
A driver never raises into the table and never touches game state.
"""

from __future__ import annotations

import errno
import logging
import queue
import threading
from collections import Counter
from typing import Any

import usb.core
import usb.util

from drivers import dice_report as codec
from drivers.events import DeviceEvent, DeviceFault, DeviceOffline, DeviceOnline
from drivers.usb_backends import UsbBackendError, resolve

log = logging.getLogger(__name__)

GONE = "unplugged"
AHEAD = 128
"""Steps of the report sequence (mod 256) read as forward: 1 is the next report, 2..128 a gap of
lost reports; 129..255 are steps back (-127..-1), and 0 the same report again."""


class CupNotFound(LookupError):
    """No cup with the configured ids (and serial) on the backend's bus."""


class DiceCupDriver:
    """Controller side of one USB dice cup."""

    def __init__(self, name: str, inbox: queue.Queue, *, vendor_id: int, product_id: int,
                 serial: str | None = None, dice: int = codec.DEFAULT_DICE, backend: str | Any = "libusb1",
                 read_timeout: float = 0.5, control_timeout: float = 1.0,
                 reconnect_min: float = 0.05, reconnect_max: float = 2.0) -> None:
        self.name = name
        self.inbox = inbox
        self.vendor_id = vendor_id
        self.product_id = product_id
        self.serial = serial
        self.dice = dice
        self.backend = backend
        """A name for :func:`drivers.usb_backends.resolve`, or an ``IBackend`` object itself."""
        self.read_timeout = read_timeout
        self.control_timeout = control_timeout
        self.reconnect_min = reconnect_min
        self.reconnect_max = reconnect_max
        self.stats: Counter[str] = Counter()
        """reports, bad_report (and each reason), reports_lost, duplicate_report, stale_report,
        restarted, stall, opened, offline."""
        self.last_status: codec.CupStatus | None = None
        self._dev: Any = None
        self._endpoint: int | None = None
        self._last_seq: int | None = None
        self._damaged = 0                  # reports that did not decode since the last good one
        self._synced = False
        self._online = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._control = threading.Lock()   # one control request at a time, whoever asks

    @property
    def ids(self) -> str:
        return f"{self.vendor_id:04x}:{self.product_id:04x}" + (f" serial {self.serial}" if self.serial else "")

    # --- the driver protocol (drivers.base) -------------------------------------------
    def start(self) -> None:
        """Look for the cup and read it, on a thread of its own (retrying until it is there)."""
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"dice-cup-{self.name}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float | None = None) -> None:
        """The reader notices within ``read_timeout``; the interface is released and the device closed."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout if timeout is not None else self.read_timeout + self.control_timeout + 2.0)

    @property
    def alive(self) -> bool:
        """The cup is open and its reader is running (USB reports an unplug at once: no heartbeat)."""
        return self._online and self._thread is not None and self._thread.is_alive()

    @property
    def synced(self) -> bool:
        """The cup answered this process's status request at least once."""
        return self._synced

    # --- control requests (any thread) -------------------------------------------------
    def status(self) -> codec.CupStatus:
        """GET_STATUS; :class:`usb.core.USBError` if the cup is gone, ValueError if it answers
        something this protocol does not know."""
        raw = self._ctrl(codec.GET_STATUS, codec.STATUS_SIZE)
        found = codec.decode_status(raw)
        if isinstance(found, str):
            raise ValueError(found)
        self.last_status = found
        return found

    def self_test(self) -> codec.SelfTest:
        """SELF_TEST: the cup checks its camera and each die's slot; the verdict comes back at once."""
        found = codec.decode_self_test(self._ctrl(codec.SELF_TEST, codec.SELF_TEST_SIZE))
        if isinstance(found, str):
            raise ValueError(found)
        return found

    def _ctrl(self, request: int, length: int) -> bytes:
        dev = self._dev
        if dev is None:
            raise usb.core.USBError(f"the {self.name} is not open", errno=errno.ENODEV)
        with self._control:
            return bytes(dev.ctrl_transfer(codec.REQUEST_IN, request, 0, 0, length,
                                           timeout=int(self.control_timeout * 1000)))

    # --- the reader thread -------------------------------------------------------------
    def _put(self, event: DeviceEvent) -> None:
        self.inbox.put(event)

    def _run(self) -> None:
        """Open, read until the cup goes, say so once, look for it again with a backoff."""
        delay = self.reconnect_min
        said_offline = False
        while not self._stop.is_set():
            try:
                self._open()
            except (CupNotFound, UsbBackendError, usb.core.USBError, ValueError, NotImplementedError) as exc:
                self._close()
                why = _open_failure(exc)
            else:
                why = self._session()
                was_online = self._online
                self._close()
                if self._stop.is_set():
                    break
                if was_online:   # a session that said hello: the next absence is news, the backoff starts afresh
                    said_offline, delay = False, self.reconnect_min
                    self.stats["offline"] += 1
            if not said_offline:
                log.warning("%s: %s", self.name, why)
                self._put(DeviceOffline(self.name, why))
                said_offline = True
            self._stop.wait(delay)
            delay = min(delay * 2, self.reconnect_max)
        self._close()

    def _open(self) -> None:
        """Find the cup, configure it, claim its interface, find its interrupt-IN endpoint."""
        backend = resolve(self.backend) if isinstance(self.backend, str) else self.backend
        found = list(usb.core.find(find_all=True, idVendor=self.vendor_id, idProduct=self.product_id,
                                   backend=backend))
        if self.serial is not None:
            found = [d for d in found if _serial_of(d) == self.serial]
        if not found:
            raise CupNotFound(f"no USB device {self.ids} is connected")
        if len(found) > 1:
            log.warning("%s: %d devices %s: using the first; name its serial in the config", self.name,
                        len(found), self.ids)
        dev = self._dev = found[0]
        try:
            config = dev.get_active_configuration()
        except usb.core.USBError:   # unconfigured: the first configuration
            dev.set_configuration()
            config = dev.get_active_configuration()
        interface = config[(0, 0)]
        number = interface.bInterfaceNumber
        try:
            if dev.is_kernel_driver_active(number):
                dev.detach_kernel_driver(number)
        except NotImplementedError:
            pass  # a backend without kernel drivers (the simulator's, libusb on some systems)
        endpoint = usb.util.find_descriptor(
            interface, custom_match=lambda e: usb.util.endpoint_direction(e.bEndpointAddress) == usb.util.ENDPOINT_IN
            and usb.util.endpoint_type(e.bmAttributes) == usb.util.ENDPOINT_TYPE_INTR)
        if endpoint is None:
            raise ValueError(f"USB device {self.ids} has no interrupt-IN endpoint: not a dice cup")
        usb.util.claim_interface(dev, number)
        self._endpoint = endpoint.bEndpointAddress
        self.stats["opened"] += 1

    def _hello(self) -> None:
        """Status and self-test on every opening: the cup's identity goes to the table."""
        dev = self._dev
        status = self.status()
        self._last_seq = (status.next_seq - 1) % 256
        self._damaged = 0
        product = _string(dev, "product") or "dice cup"
        self._online = True
        self._synced = True
        self._put(DeviceOnline(self.name, f"{product} {status.firmware}", serial=_serial_of(dev)))
        if status.dice != self.dice:
            self._put(DeviceFault(self.name, "wrong_dice",
                                  f"the cup reports {status.dice} dice; [devices.{self.name}] dice = {self.dice}"))
        verdict = self.self_test()
        if not verdict.passed:
            which = ", ".join(f"die {d}" for d in verdict.failing) or "the cup itself"
            self._put(DeviceFault(self.name, "self_test", f"self-test failed: {which}"))

    def _session(self) -> str:
        """Say hello, then read reports until the cup goes away or the driver stops; returns why it ended."""
        try:
            self._hello()
        except (usb.core.USBError, ValueError) as exc:
            return _gone(exc) if isinstance(exc, usb.core.USBError) else f"status unreadable: {exc}"
        timeout = max(1, int(self.read_timeout * 1000))
        while not self._stop.is_set():
            try:
                data = self._dev.read(self._endpoint, codec.REPORT_SIZE, timeout=timeout)
            except usb.core.USBTimeoutError:
                continue
            except usb.core.USBError as exc:
                if exc.errno == errno.EPIPE:
                    if not self._stalled():
                        return _gone(exc)
                    continue
                if exc.errno == errno.EOVERFLOW:   # the cup sent more than a report: babble
                    self._bad(f"bad_length: more than {codec.REPORT_SIZE} bytes")
                    continue
                return _gone(exc)
            self._report(bytes(data))
        return "stopped"

    def _stalled(self) -> bool:
        """EPIPE: the endpoint halted. Clear it and go on; False if the clear fails (the cup is gone)."""
        self.stats["stall"] += 1
        self._put(DeviceFault(self.name, "stall", f"endpoint 0x{self._endpoint:02x} stalled; the driver cleared it"))
        try:
            self._dev.clear_halt(self._endpoint)
        except usb.core.USBError:
            return False
        return True

    def _report(self, data: bytes) -> None:
        decoded = codec.decode(data)
        report = decoded.report
        if report is None:
            self._bad(decoded.error or "bad report")
            return
        self.stats["reports"] += 1
        last, damaged = self._last_seq, self._damaged
        if last is not None:
            step = (report.seq - last) % 256
            if step == 0:
                self.stats["duplicate_report"] += 1
                self._put(DeviceFault(self.name, "duplicate_report",
                                      f"report seq {report.seq} came twice: the second is set aside"))
                return
            if step > AHEAD or step - 1 > damaged:
                where = self._counter()
                if where is None:
                    self._bad(f"unplaced: report seq {report.seq} after {last}, and the cup's status could not be read")
                    return
                if step > AHEAD and not _sent(where, last):
                    self.stats["restarted"] += 1
                    self._put(DeviceFault(self.name, "restarted",
                                          f"report seq {report.seq} after {last}: the cup's sequence started again "
                                          "(it restarted); what it had not sent is lost"))
                elif step > AHEAD or not _sent(where, report.seq):
                    self.stats["stale_report"] += 1
                    self._put(DeviceFault(self.name, "stale_report",
                                          f"report seq {report.seq} after {last}: an earlier report sent again, out "
                                          "of order; set aside"))
                    return
                else:
                    lost = step - 1 - damaged
                    self.stats["reports_lost"] += lost
                    self._put(DeviceFault(self.name, "reports_lost",
                                          f"{lost} report(s) lost (seq {report.seq} after {last})"))
        self._last_seq, self._damaged = report.seq, 0
        self._put(codec.to_event(report, self.name))

    def _counter(self) -> int | None:
        """Where the cup's report counter stands (GET_STATUS: the seq of the next report it will
        deliver), asked when a report's seq is not the next one; None if the status cannot be read:
        the report cannot be placed and is set aside as damaged (a cup that is gone is found again,
        and its hello sets where the sequence stands; while a shake is due, the round asks again).

        It tells the three readings of a seq apart: after a gap the counter is just past the report
        (reports were lost on the way); after a restart it is just past the report and so behind
        the last report read; after a report sent again it is past the last report read, and the
        report is behind it -- or, a report of an earlier session sent again after a replug, ahead
        of the counter, a report the cup has not sent yet."""
        try:
            return self.status().next_seq
        except (usb.core.USBError, ValueError):
            return None

    def _bad(self, why: str) -> None:
        """Counted and reported, never raised. A damaged report's own seq cannot be read, so the next
        good report may be up to one step further on per damaged report without a loss being reported
        (garbage that was no report of the cup takes no seq: a gap that big is not seen)."""
        self._damaged += 1
        self.stats["bad_report"] += 1
        self.stats[why.split(":")[0]] += 1
        self._put(DeviceFault(self.name, "bad_report", why))

    def _close(self) -> None:
        self._online = False
        dev, self._dev = self._dev, None
        if dev is None:
            return
        try:
            usb.util.dispose_resources(dev)   # releases the claimed interface and closes the handle
        except (usb.core.USBError, NotImplementedError, ValueError):
            log.debug("%s: closing the device failed (it is gone)", self.name, exc_info=True)


def _string(dev: Any, attr: str) -> str | None:
    try:
        return getattr(dev, attr)
    except (usb.core.USBError, ValueError, NotImplementedError):
        return None


def _serial_of(dev: Any) -> str | None:
    return _string(dev, "serial_number")


def _gone(exc: usb.core.USBError) -> str:
    if exc.errno == errno.ENODEV:
        return GONE
    return f"{GONE} or failing: {exc.strerror or exc}"


def _open_failure(exc: Exception) -> str:
    if isinstance(exc, usb.core.USBError):
        if exc.errno == errno.EACCES:
            return (f"cannot open the cup: access denied (the udev rule gives group tablectl access: "
                    f"systemd/99-tablectl.rules) [{exc.strerror or exc}]")
        if exc.errno == errno.EBUSY:
            return "cannot claim the cup: another program holds its interface"
        return f"cannot open the cup: {exc.strerror or exc}"
    return str(exc)


def _sent(counter: int, seq: int) -> bool:
    """Whether report ``seq`` is one the cup sent lately, by its ``counter`` (the seq of the next
    report it will deliver): at most :data:`AHEAD` reports before it. Otherwise ``seq`` lies in the
    counter's future: a report not sent yet (one of an earlier session sent again), or the last
    report read when the counter has gone back (a restart)."""
    return (counter - seq - 1) % 256 <= AHEAD
