"""A simulated USB bus as a pyusb backend (``usb.backend.IBackend``), as PyFtdi's virtual backend does.

pyusb's ``usb.core`` (find, the Device / Configuration / Interface / Endpoint objects, string
descriptors, ``read``, ``ctrl_transfer``, ``clear_halt``) runs unchanged on top of it: this
module plays the host controller and libusb. It parses each device's descriptors from the bytes
the device holds, answers the standard requests (GET_DESCRIPTOR, GET_CONFIGURATION) from them,
passes vendor requests and interrupt-IN reads to the device (:mod:`hw_sim.dice_cup`), and turns
the device's states into the errors libusb gives pyusb: ENODEV for an unplugged device or a
handle from before a replug, EPIPE for a halted endpoint or a request the device stalls, EBUSY
for an interface another handle claimed, a ``USBTimeoutError`` when nothing came in time.

:meth:`SimUsbBus.register` names the bus ``hwsim://NAME`` in :mod:`drivers.usb_backends`, where
a dice cup's config (``backend = "hwsim://NAME"``) finds it.
"""

from __future__ import annotations

import errno
import itertools
import struct
import threading
from array import array
from dataclasses import dataclass
from typing import Any

import usb.backend
import usb.core

from drivers import usb_backends
from hw_sim.dice_cup import CupGone, CupStalled, CupTimeout, SimDiceCup

_TEXT = {errno.ENODEV: (-4, "No such device (it may have been disconnected)"), errno.EPIPE: (-9, "Pipe error"),
         errno.EBUSY: (-6, "Resource busy"), errno.EINVAL: (-2, "Invalid parameter")}


def _error(code: int) -> usb.core.USBError:
    """The USBError pyusb's libusb1 backend raises for that errno (its libusb code and text)."""
    libusb, text = _TEXT[code]
    return usb.core.USBError(text, libusb, code)


class _Descriptor:
    """A descriptor as pyusb reads it: its fields as attributes, and what follows it."""

    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)
        self.extra_descriptors = array("B")


def _fields(fmt: str, names: str, raw: bytes) -> dict[str, int]:
    return dict(zip(names.split(), struct.unpack(fmt, raw[:struct.calcsize(fmt)]), strict=True))


@dataclass
class _Handle:
    id: int
    device: SimDiceCup
    generation: int
    open: bool = True


class SimUsbBus(usb.backend.IBackend):
    """The simulated cups on one bus. ``attach`` a device; ``register()`` to make the bus findable."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.devices: list[SimDiceCup] = []
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"hwsim://{self.name}"

    def attach(self, device: SimDiceCup) -> SimDiceCup:
        with self._lock:
            self.devices.append(device)
        return device

    def register(self) -> SimUsbBus:
        usb_backends.register(self.url, self)
        return self

    def unregister(self) -> None:
        usb_backends.unregister(self.url)

    # --- enumeration and descriptors ----------------------------------------------------
    def enumerate_devices(self):  # type: ignore[no-untyped-def]
        with self._lock:
            present = [d for d in self.devices if d.plugged]
        yield from present

    def get_parent(self, dev: SimDiceCup) -> None:
        return None

    def get_device_descriptor(self, dev: SimDiceCup) -> _Descriptor:
        fields = _fields("<BBHBBBBHHHBBBB", "bLength bDescriptorType bcdUSB bDeviceClass bDeviceSubClass "
                         "bDeviceProtocol bMaxPacketSize0 idVendor idProduct bcdDevice iManufacturer iProduct "
                         "iSerialNumber bNumConfigurations", dev.device_descriptor())
        return _Descriptor(**fields, bus=1, address=dev.address, port_number=1, port_numbers=(1,), speed=2)

    def _parts(self, dev: SimDiceCup) -> list[bytes]:
        raw, parts = dev.configuration_descriptor(), []
        while raw:
            parts.append(raw[:raw[0]])
            raw = raw[raw[0]:]
        return parts

    def get_configuration_descriptor(self, dev: SimDiceCup, config: int) -> _Descriptor:
        if config != 0:
            raise IndexError(f"configuration {config}: the cup has one")
        return _Descriptor(**_fields("<BBHBBBBB", "bLength bDescriptorType wTotalLength bNumInterfaces "
                                     "bConfigurationValue iConfiguration bmAttributes bMaxPower", self._parts(dev)[0]))

    def _interfaces(self, dev: SimDiceCup) -> list[tuple[bytes, list[bytes]]]:
        out: list[tuple[bytes, list[bytes]]] = []
        for part in self._parts(dev)[1:]:
            if part[1] == 4:
                out.append((part, []))
            elif part[1] == 5 and out:
                out[-1][1].append(part)
        return out

    def get_interface_descriptor(self, dev: SimDiceCup, intf: int, alt: int, config: int) -> _Descriptor:
        found = [i for i in self._interfaces(dev) if i[0][2] == intf]
        if config != 0 or alt >= len(found):
            raise IndexError(f"interface {intf}, alternate setting {alt}: not on this device")
        return _Descriptor(**_fields("<BBBBBBBBB", "bLength bDescriptorType bInterfaceNumber bAlternateSetting "
                                     "bNumEndpoints bInterfaceClass bInterfaceSubClass bInterfaceProtocol "
                                     "iInterface", found[alt][0]))

    def get_endpoint_descriptor(self, dev: SimDiceCup, ep: int, intf: int, alt: int, config: int) -> _Descriptor:
        found = [i for i in self._interfaces(dev) if i[0][2] == intf]
        if config != 0 or alt >= len(found) or ep >= len(found[alt][1]):
            raise IndexError(f"endpoint {ep} of interface {intf}: not on this device")
        fields = _fields("<BBBBHB", "bLength bDescriptorType bEndpointAddress bmAttributes wMaxPacketSize bInterval",
                         found[alt][1][ep])
        return _Descriptor(**fields, bRefresh=0, bSynchAddress=0)

    # --- handles -----------------------------------------------------------------------------
    def open_device(self, dev: SimDiceCup) -> _Handle:
        if not dev.plugged:
            raise _error(errno.ENODEV)
        return _Handle(next(self._ids), dev, dev.generation)

    def close_device(self, dev_handle: _Handle) -> None:
        dev_handle.open = False
        dev = dev_handle.device
        if dev.claimed_by == dev_handle.id:
            dev.claimed_by = None

    def _live(self, handle: _Handle) -> SimDiceCup:
        dev = handle.device
        if not handle.open or not dev.plugged or handle.generation != dev.generation:
            raise _error(errno.ENODEV)
        return dev

    def set_configuration(self, dev_handle: _Handle, config_value: int) -> None:
        dev = self._live(dev_handle)
        if config_value not in (0, 1):
            raise _error(errno.EINVAL)
        dev.configuration = config_value

    def get_configuration(self, dev_handle: _Handle) -> int:
        return self._live(dev_handle).configuration

    def set_interface_altsetting(self, dev_handle: _Handle, intf: int, altsetting: int) -> None:
        self._live(dev_handle)
        if intf != 0 or altsetting != 0:
            raise _error(errno.EINVAL)

    def claim_interface(self, dev_handle: _Handle, intf: int) -> None:
        dev = self._live(dev_handle)
        if intf != 0:
            raise _error(errno.EINVAL)
        if dev.claimed_by not in (None, dev_handle.id):
            raise _error(errno.EBUSY)   # another handle (another program) holds it
        dev.claimed_by = dev_handle.id

    def release_interface(self, dev_handle: _Handle, intf: int) -> None:
        dev = dev_handle.device
        if dev.claimed_by == dev_handle.id:
            dev.claimed_by = None

    def is_kernel_driver_active(self, dev_handle: _Handle, intf: int) -> bool:
        self._live(dev_handle)
        return False

    def detach_kernel_driver(self, dev_handle: _Handle, intf: int) -> None:
        self._live(dev_handle)

    def reset_device(self, dev_handle: _Handle) -> None:
        self._live(dev_handle)

    # --- transfers -----------------------------------------------------------------------------
    def intr_read(self, dev_handle: _Handle, ep: int, intf: int, buff: array, timeout: int) -> int:
        dev = self._live(dev_handle)
        if dev.claimed_by != dev_handle.id:
            raise _error(errno.EBUSY)
        try:
            report = dev.take_report(dev_handle.generation, timeout)
        except CupGone:
            raise _error(errno.ENODEV) from None
        except CupStalled:
            raise _error(errno.EPIPE) from None
        except CupTimeout:
            raise usb.core.USBTimeoutError("Operation timed out", -7, errno.ETIMEDOUT) from None
        if len(report) > len(buff):
            raise usb.core.USBError("Overflow", -8, errno.EOVERFLOW)
        buff[:len(report)] = array("B", report)
        return len(report)

    def clear_halt(self, dev_handle: _Handle, ep: int) -> None:
        dev = self._live(dev_handle)
        try:
            dev.clear_halt(dev_handle.generation)
        except CupGone:
            raise _error(errno.ENODEV) from None

    def ctrl_transfer(self, dev_handle: _Handle, bmRequestType: int, bRequest: int, wValue: int, wIndex: int,
                      data: array, timeout: int) -> int:
        dev = self._live(dev_handle)
        answer: bytes | None = None
        if bmRequestType == 0x80 and bRequest == 6:          # GET_DESCRIPTOR
            kind, index = wValue >> 8, wValue & 0xFF
            answer = (dev.device_descriptor() if kind == 1 else dev.configuration_descriptor() if kind == 2
                      else dev.string_descriptor(index) if kind == 3 else None)
        elif bmRequestType == 0x80 and bRequest == 8:        # GET_CONFIGURATION
            answer = bytes((dev.configuration,))
        elif bmRequestType & 0x60 == 0x40 and bmRequestType & 0x80:   # vendor, IN
            try:
                answer = dev.vendor_request(dev_handle.generation, bRequest)
            except CupGone:
                raise _error(errno.ENODEV) from None
        if answer is None:
            raise _error(errno.EPIPE)                          # the device stalls what it does not know
        n = min(len(answer), len(data))
        data[:n] = array("B", answer[:n])
        return n
