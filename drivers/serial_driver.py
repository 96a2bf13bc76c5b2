"""What the shoe and shuffler drivers share: a :class:`~drivers.link.Link` on a
pyserial URL, and the translation of what it hears into inbox events.

The transport is ``serial.serial_for_url``, so the same driver opens a
device path, a ``/dev/serial/by-id/...`` link, a simulator's pty,
``socket://host:port`` or an in-process ``hwsim://NAME``. Everything that
reaches the inbox is a :mod:`drivers.events` object; the driver never
touches game state and never blocks the table thread (requests are queued).

A controller that was killed may leave a device retransmitting a data frame
it never acknowledged (a card the shoe read as the process died). The new
process must not take that read as one of its own: until the device's first
hello (its answer to the ``S`` sent on opening the line) the driver
acknowledges data frames, so the device moves on, and drops them. Only the
first opening of a driver does this: after a cable is unplugged and plugged
back in, a frame pending from before belongs to the same round and is
delivered (docs/protocols.md, a frame pending gets fresh tries). The table
opens only once every driver is :attr:`~SerialDeviceDriver.synced`, so no
frame of this process's own can be queued behind an old one.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable

import serial

from drivers import messages
from drivers.events import (
    CardDrawn,
    DeviceEvent,
    DeviceFault,
    DeviceOffline,
    DeviceOnline,
    FramesDropped,
    ReadsAccounted,
)
from drivers.framing import Frame
from drivers.link import Link, Port

log = logging.getLogger(__name__)

Parser = Callable[[Frame, str], messages.Decoded]


class SerialDeviceDriver:
    """Controller side of one serial device line. A device class only names
    its message parser (``PARSER``) and adds its requests."""

    PARSER: Parser

    def __init__(
        self,
        name: str,
        url: str,
        inbox: queue.Queue,
        *,
        baudrate: int = 115200,
        heartbeat_timeout: float = 3.0,
        retransmit: float = 0.25,
    ) -> None:
        self.name = name
        self.url = url
        self.inbox = inbox
        self.baudrate = baudrate
        self.heartbeat_timeout = heartbeat_timeout
        self._parser = type(self).PARSER
        self._info = ""
        self._before_hello = True  # this process has not heard the device's hello yet
        self._last_read: int | None = None  # a card reader's count of the last card that arrived
        self._owed: int | None = None       # its hello's count, while cards it read are still to come
        self._was_offline = False
        self.stale_dropped = 0     # data frames from before this process, acknowledged and dropped
        self._link = Link(
            self._open,
            name=name,
            on_frame=self._on_frame,
            on_online=self._on_online,
            on_offline=self._on_offline,
            on_drops=self._on_drops,
            on_link_lost=self._on_link_lost,
            on_open=self.request_status,
            retransmit=retransmit,
            heartbeat_timeout=heartbeat_timeout,
        )

    def _open(self) -> Port:
        # The read timeout only bounds how late a silent device is noticed.
        return serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=self.heartbeat_timeout / 4)

    # --- public ------------------------------------------------------------------
    def start(self) -> None:
        """Open the line (retrying in the background until it opens)."""
        self._link.start()

    def stop(self) -> None:
        self._link.stop()

    @property
    def alive(self) -> bool:
        """Port open and the device heard within ``heartbeat_timeout``."""
        return self._link.alive

    @property
    def stats(self) -> dict:
        """Frames in/out, retransmits, duplicates, NAKs, lost frames, drops by reason."""
        return self._link.stats

    @property
    def synced(self) -> bool:
        """The device has said hello to this process: whatever it sends from now
        on was sent to this process (the table waits for it before it opens)."""
        return not self._before_hello

    def request_status(self) -> None:
        """Ask the device to say hello (``S``): its answer is a DeviceOnline."""
        self._link.send(*messages.request(messages.STATUS))

    # --- link callbacks (link threads: only put on the inbox) -------------------
    def _put(self, event: DeviceEvent) -> None:
        self.inbox.put(event)

    def _on_frame(self, frame: Frame) -> str | None:
        if self._before_hello:
            if frame.type != messages.HELLO:  # sent to a controller process that is gone
                self.stale_dropped += 1
                log.warning("%s: a %r frame from before this controller started was acknowledged and dropped",
                            self.name, frame.type)
                return None
            self._before_hello = False
        decoded = self._parser(frame, self.name)
        event = decoded.event
        if isinstance(event, DeviceOnline):
            self._info = event.info
            self._put(event)
            if event.reads is not None:
                self._account_hello(event.reads)
            return decoded.nak
        if isinstance(event, CardDrawn) and event.read is not None:
            self._account_card(event.read)
        if event is not None:
            self._put(event)
        if isinstance(event, CardDrawn) and event.read is not None and self._owed is not None \
                and event.read >= self._owed:
            self._owed = None
            self._put(ReadsAccounted(self.name, event.read))
        return decoded.nak

    # --- a card reader's own count (docs/protocols.md, "Reliability") ---------------
    def _account_hello(self, reads: int) -> None:
        """The reader says how many cards it has read. Fewer than arrived: it restarted, and a
        card it had read and not yet sent may be gone. More: they are still to come (it keeps
        them until acknowledged). As many: nothing is missing."""
        last = self._last_read
        if last is None or reads == last:
            self._last_read = reads
            self._owed = None
            self._put(ReadsAccounted(self.name, reads))
        elif reads < last:
            self._last_read = reads
            self._owed = None
            self._put(DeviceFault(self.name, "cards_lost", f"the {self.name} restarted: a card it read before "
                                                           "may never have arrived"))
        else:
            self._owed = reads

    def _account_card(self, read: int) -> None:
        last = self._last_read
        if last is not None and read > last + 1:
            missing = read - last - 1
            self._put(DeviceFault(self.name, "cards_lost",
                                  f"{missing} card(s) the {self.name} read never arrived"))
        if last is None or read > last:
            self._last_read = read

    def _on_online(self, frame_type: str) -> None:
        if frame_type != messages.HELLO:      # a hello brings its own DeviceOnline
            self._put(DeviceOnline(self.name, self._info))
            if self._was_offline:
                # Back after a silence: ask for its hello, whose count proves nothing it read was lost.
                self.request_status()
        self._was_offline = False

    def _on_offline(self, reason: str) -> None:
        self._was_offline = True
        self._put(DeviceOffline(self.name, reason))

    def _on_drops(self, counts: dict[str, int]) -> None:
        self._put(FramesDropped(self.name, counts))

    def _on_link_lost(self, type_: str) -> None:
        self._put(DeviceFault(self.name, "link_lost",
                              f"{type_!r} frame not acknowledged after {self._link.retries + 1} sends"))
