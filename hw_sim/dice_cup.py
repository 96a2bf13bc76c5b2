"""A simulated USB dice cup: the device itself, as its firmware would behave.

It holds its USB descriptors as the bytes a real cup returns, its queue of interrupt-IN
reports (:mod:`drivers.dice_report`, the same codec the driver decodes with), and the dice:
each die has its own face weights (fair by default; a *loaded* die favours a face), drawn from
one seeded ``random.Random`` so a run repeats exactly. :class:`hw_sim.usb_backend.SimUsbBus`
presents it to pyusb as a host controller would, so the driver's real ``usb.core`` calls run
against it.

Faults by name (:meth:`SimDiceCup.inject`, scheduled by :mod:`hw_sim.faults`): ``unplug`` /
``replug`` (a new bus address, the report queue lost, the sequence from 0), ``stall`` (the
interrupt endpoint halts until the host clears it; queued reports are kept),
``malformed_report`` (the next shake's reading goes out with a broken CRC, or ``data=`` bytes
now), ``repeat_report`` (the last report goes out again, the same bytes: a duplicate),
``stale_report`` (an earlier report goes out again, out of order: ``back=`` reports back, default
3), ``garbage`` (a report of 16 seeded random bytes, now), ``lose_reports`` (the next ``count=`` reports,
default 1, are lost on the way: their seqs are used up and nothing arrives), and for the next shake ``die_on_edge``, ``die_unreadable``, ``lifted_early``.
"""

from __future__ import annotations

import logging
import random
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from drivers import dice_report as codec
from games.dice import FACES

log = logging.getLogger(__name__)

VENDOR_ID = 0x1209
"""pid.codes' open-source vendor id; a real cup's ids go in the table's config."""
PRODUCT_ID = 0xD1CE
ENDPOINT_IN = 0x81
INTERVAL_MS = 10

SHAKE_FAULTS: tuple[str, ...] = ("die_on_edge", "die_unreadable", "lifted_early", "malformed_report")


class CupGone(Exception):
    """The cup is unplugged (or was replugged since the handle was opened): ENODEV."""


class CupStalled(Exception):
    """The interrupt endpoint is halted: EPIPE until the host clears it."""


class CupTimeout(Exception):
    """No report within the read's timeout."""


def loaded_weights(face: int, factor: float) -> tuple[float, ...]:
    """A die whose ``face`` comes ``factor`` times as often as each other face."""
    if face not in FACES or factor <= 0:
        raise ValueError(f"a loaded die favours a face 1..6 by a factor above 0, not face {face}, factor {factor}")
    return tuple(factor if f == face else 1.0 for f in FACES)


class SimDiceCup:
    """One dice cup. ``weights``: per die (die 1 first) the relative weights of faces 1..6;
    missing dice are fair. ``serial`` is its USB serial number string."""

    KIND = "dice_cup"
    BUS = "usb"

    def __init__(self, *, dice: int = 3, seed: int | random.Random = 0, serial: str = "SIMCUP-0001",
                 weights: Sequence[Sequence[float]] = (), product: str = "SIMCUP", manufacturer: str = "tablectl sim",
                 firmware: tuple[int, int] = (1, 0), vendor_id: int = VENDOR_ID, product_id: int = PRODUCT_ID,
                 name: str | None = None) -> None:
        if not 1 <= dice <= codec.MAX_DICE:
            raise ValueError(f"a cup holds 1 to {codec.MAX_DICE} dice, not {dice}")
        self.dice = dice
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.weights = [tuple(w) for w in weights] + [(1.0,) * 6] * (dice - len(weights))
        if len(self.weights) != dice or any(len(w) != 6 or min(w) < 0 for w in self.weights):
            raise ValueError("weights: one tuple of six weights (faces 1..6, none below 0) per die")
        self.serial = serial
        self.product = product
        self.manufacturer = manufacturer
        self.firmware = firmware
        self.vendor_id = vendor_id
        self.product_id = product_id
        self.name = name or self.KIND
        self.port = None                  # no serial line: the rig finds the cup on its USB bus
        self.on_back: list[Callable[[], None]] = []
        """Called when an unplugged cup has been opened by the controller again (the dealer acts again)."""
        self.throws: list[tuple[int, ...]] = []   # every reading the cup sent, in order
        self.sent: list[bytes] = []               # every report queued, in order (the golden tests read it)
        self.configuration = 1
        self.generation = 0                       # +1 per replug: handles opened before are dead
        self.address = 2
        self.plugged = True
        self.halted = False
        self.claimed_by: int | None = None
        self.state = "closed"
        self.last_fault: str | None = None
        self.self_test_failing: tuple[int, ...] | None = None   # None: passes
        self._seq = 0
        self._reports: deque[tuple[int | None, bytes]] = deque()
        """(seq, bytes) of the reports queued; seq None for bytes that are no new report of the cup's counter
        (a report sent again, garbage, bytes injected)."""
        self._armed: list[tuple[str, dict[str, Any]]] = []
        self._awaiting_controller = False
        self._cond = threading.Condition()

    # --- the rig's device protocol -------------------------------------------------------
    def start(self) -> None:
        """Powered from the bus: nothing to start."""

    def stop(self) -> None:
        with self._cond:
            self._cond.notify_all()

    @property
    def dead(self) -> bool:
        """Unplugged, or replugged and not yet opened by the controller: the dealer does not shake it."""
        return not self.plugged or self._awaiting_controller

    # --- the dealer's hands ----------------------------------------------------------------
    def roll(self) -> tuple[int, ...]:
        """The dice as they land: each die by its own weights (seeded)."""
        return tuple(self.rng.choices(FACES, weights=w)[0] for w in self.weights)

    def shake(self, values: Sequence[int] | None = None) -> tuple[int, ...] | None:
        """The dealer shakes the cup, sets it down and lifts it: ``shaken``, ``opened`` with the
        dice (``values`` to script them, else rolled), ``closed`` -- or what an armed fault makes
        of it. Returns the values the cup read, or None when it read none."""
        with self._cond:
            fault, kw = self._armed.pop(0) if self._armed else (None, {})
        landed = tuple(values) if values is not None else self.roll()
        if fault == "lifted_early":
            self._queue(lambda seq: codec.fault(seq, "lifted_early"), state="open", fault="lifted_early")
            self._queue(codec.closed, state="closed")
            return None
        self._queue(codec.shaken, state="closed")
        if fault in ("die_on_edge", "die_unreadable"):
            die = kw.get("die", 1 + self.rng.randrange(self.dice))
            self._queue(lambda seq: codec.fault(seq, fault, die), state="open", fault=fault)
            self._queue(codec.closed, state="closed")
            return None
        if fault == "malformed_report":
            self._queue(lambda seq: _broken(codec.opened(seq, landed)), state="open")
        else:
            self._queue(lambda seq: codec.opened(seq, landed), state="open")
            self.throws.append(landed)
        self._queue(codec.closed, state="closed")
        return landed if fault is None else None

    def _queue(self, build: Callable[[int], bytes], *, state: str, fault: str | None = None) -> None:
        with self._cond:
            if not self.plugged:
                return   # shaken while unplugged: the cup reports nothing
            report = build(self._seq)
            self._reports.append((self._seq, report))
            self.sent.append(report)
            self._seq = (self._seq + 1) % 256
            self.state = state
            if fault is not None:
                self.last_fault = fault
            self._cond.notify_all()

    # --- faults ------------------------------------------------------------------------------
    def inject(self, name: str, **kw: Any) -> None:
        """A fault by name (see the module's docstring); :class:`ValueError` naming the known ones."""
        if name in ("die_on_edge", "die_unreadable", "lifted_early"):
            with self._cond:
                self._armed.append((name, kw))
        elif name == "malformed_report":
            if "data" in kw:       # these bytes as the next report, now
                with self._cond:
                    self._reports.append((None, bytes(kw["data"])))
                    self.sent.append(bytes(kw["data"]))
                    self._cond.notify_all()
            else:
                with self._cond:
                    self._armed.append((name, kw))
        elif name in ("repeat_report", "stale_report"):
            back = 1 if name == "repeat_report" else int(kw.get("back", 3))
            with self._cond:
                if self.plugged and len(self.sent) >= back:   # nothing to send again before that
                    again = self.sent[-back]
                    self._reports.append((None, again))
                    self.sent.append(again)
                    self._cond.notify_all()
        elif name == "garbage":        # a report of seeded random bytes, now: no report of this protocol
            with self._cond:
                noise = bytes(self.rng.randrange(256) for _ in range(codec.REPORT_SIZE))
                self._reports.append((None, noise))
                self.sent.append(noise)
                self._cond.notify_all()
        elif name == "lose_reports":   # the next ``count`` reports are lost on the way: their seqs are taken
            with self._cond:
                self._seq = (self._seq + int(kw.get("count", 1))) % 256
        elif name == "stall":
            with self._cond:
                self.halted = True
                self._cond.notify_all()
        elif name == "unplug":
            self.unplug()
        elif name == "replug":
            self.replug()
        elif name == "self_test_fails":
            self.self_test_failing = tuple(kw.get("dice", (1,)))
        else:
            raise ValueError(f"{self.KIND}: no fault named {name!r}; known: die_on_edge, die_unreadable, "
                             "garbage, lifted_early, lose_reports, malformed_report, repeat_report, stale_report, "
                             "self_test_fails, stall, unplug, replug")

    def unplug(self) -> None:
        """Pull the cable: every transfer fails with ENODEV, queued reports are lost with the power."""
        with self._cond:
            self.plugged = False
            self._awaiting_controller = False
            self._reports.clear()
            self.claimed_by = None
            self._cond.notify_all()

    def replug(self) -> None:
        """Plug it back in: a new address, the sequence from 0, nothing queued; handles opened
        before are dead (the driver must find it again)."""
        with self._cond:
            self.generation += 1
            self.address += 1
            self._seq = 0
            self.halted = False
            self.state = "closed"
            self.plugged = True
            self._awaiting_controller = True
            self._cond.notify_all()

    # --- what the bus asks of the device (hw_sim.usb_backend) -------------------------------
    def check(self, generation: int) -> None:
        if not self.plugged or generation != self.generation:
            raise CupGone()

    def take_report(self, generation: int, timeout_ms: int) -> bytes:
        """The oldest queued report, blocking up to ``timeout_ms`` (0: no limit)."""
        end = None if timeout_ms == 0 else time.monotonic() + timeout_ms / 1000
        with self._cond:
            while True:
                self.check(generation)
                if self.halted:
                    raise CupStalled()
                if self._reports:
                    return self._reports.popleft()[1]
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    raise CupTimeout()
                self._cond.wait(left)

    def clear_halt(self, generation: int) -> None:
        with self._cond:
            self.check(generation)
            self.halted = False

    def vendor_request(self, generation: int, request: int) -> bytes | None:
        """A vendor IN request's answer, or None for one the cup does not know (it stalls it)."""
        with self._cond:
            self.check(generation)
            if request == codec.GET_STATUS:
                # Where its counter stands: the next report of its own it will deliver (a report sent
                # again is not one: the firmware's counter has moved past it).
                next_seq = next((seq for seq, _ in self._reports if seq is not None), self._seq)
                answer = codec.encode_status(self.dice, self.state, self.last_fault, self.firmware, next_seq)
                back = self._awaiting_controller
                self._awaiting_controller = False
            elif request == codec.SELF_TEST:
                failing = self.self_test_failing
                return codec.encode_self_test(failing is None, failing or ())
            else:
                return None
        if back:
            for callback in list(self.on_back):
                try:
                    callback()
                except Exception:
                    log.exception("%s: on_back callback failed", self.name)
        return answer

    # --- descriptors, as the bytes a real cup returns -------------------------------------------
    def device_descriptor(self) -> bytes:
        return struct.pack("<BBHBBBBHHHBBBB", 18, 1, 0x0200, 0, 0, 0, 64, self.vendor_id, self.product_id,
                           0x0100 * self.firmware[0] + self.firmware[1], 1, 2, 3, 1)

    def configuration_descriptor(self) -> bytes:
        """Configuration 1: one vendor-specific interface with one interrupt-IN endpoint."""
        config = struct.pack("<BBHBBBBB", 9, 2, 9 + 9 + 7, 1, 1, 0, 0x80, 50)
        interface = struct.pack("<BBBBBBBBB", 9, 4, 0, 0, 1, 0xFF, 0, 0, 0)
        endpoint = struct.pack("<BBBBHB", 7, 5, ENDPOINT_IN, 0x03, codec.REPORT_SIZE, INTERVAL_MS)
        return config + interface + endpoint

    def string_descriptor(self, index: int) -> bytes | None:
        if index == 0:
            return bytes((4, 3)) + struct.pack("<H", 0x0409)   # one language: en-US
        text = {1: self.manufacturer, 2: self.product, 3: self.serial}.get(index)
        if text is None:
            return None
        raw = text.encode("utf-16-le")
        return bytes((2 + len(raw), 3)) + raw


def _broken(report: bytes) -> bytes:
    """The report with its CRC inverted: a report damaged on its way (or by the cup's firmware)."""
    return report[:-2] + bytes(b ^ 0xFF for b in report[-2:])
