"""The dice cup's USB reports and control requests (docs/protocols.md, "Dice cup (USB)"): pure codec.

The cup sends fixed-size reports on its interrupt-IN endpoint, one per thing that happened
(shaken, opened with the dice values, closed, a fault), each with a sequence number and a
CRC. This module turns 16 bytes into a :class:`Report` and a report into a
:mod:`drivers.events` object, and back, with no I/O: the driver (:mod:`drivers.dice_cup`)
and the simulator (:mod:`hw_sim.dice_cup`) both use it, and the golden reports of the docs
are checked against it both ways.

Decoding never raises on garbage: a report that is the wrong length, has another report id,
a bad CRC, an unknown type or fault, or more dice than a report can carry is a
:class:`Decoded` with ``report`` None and ``error`` saying which (the driver counts it and
reports ``bad_report``). Die values are *not* checked here: the round machine checks them
(games.dice) and names a die showing 7 in its own alarm, so a cup that reads wrongly is seen.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass

from drivers.events import CupClosed, CupShaken, DeviceEvent, DeviceFault, DiceRead

REPORT_SIZE = 16
REPORT_ID = 0xD1
MAX_DICE = 8
"""Value slots in a report: a cup with more dice needs another report format."""
DEFAULT_DICE = 3
"""A cup's dice when its config does not say (``[devices.<role>] dice``): Pai Gow's, Double-Hand Poker's."""

SHAKEN, OPENED, CLOSED, FAULT = 0x01, 0x02, 0x03, 0x04
TYPES: dict[int, str] = {SHAKEN: "shaken", OPENED: "opened", CLOSED: "closed", FAULT: "fault"}

FAULTS: dict[int, str] = {1: "die_unreadable", 2: "die_on_edge", 3: "lifted_early"}
"""The cup's fault codes (byte 3 of a FAULT report) and the driver's names for them."""
FAULT_CODES: dict[str, int] = {name: code for code, name in FAULTS.items()}
FAULT_TEXT: dict[str, str] = {
    "die_unreadable": "the cup could not read a die",
    "die_on_edge": "a die landed on its edge",
    "lifted_early": "the cup was lifted before the shake ended",
}

# Control requests (vendor, recipient device) on endpoint 0.
REQUEST_IN = 0xC0
"""bmRequestType: device-to-host, vendor, device."""
GET_STATUS = 0x01
SELF_TEST = 0x02
STATUS_SIZE = 8
SELF_TEST_SIZE = 2
PROTOCOL_VERSION = 1

CUP_STATES: dict[int, str] = {0: "closed", 1: "shaking", 2: "open"}


@dataclass(frozen=True)
class Report:
    """One decoded input report. ``values`` for ``opened``; ``fault`` and ``die`` (1-based,
    0 = no die in particular) for ``fault``."""

    seq: int
    type: str
    values: tuple[int, ...] = ()
    fault: str | None = None
    die: int = 0


@dataclass(frozen=True)
class Decoded:
    report: Report | None
    error: str | None = None


@dataclass(frozen=True)
class CupStatus:
    """The answer to GET_STATUS: what the cup says about itself."""

    protocol: int
    dice: int
    state: str
    last_fault: str | None
    firmware: str
    next_seq: int


@dataclass(frozen=True)
class SelfTest:
    """The answer to SELF_TEST: passed, or the dice that failed (none named: the cup itself)."""

    passed: bool
    failing: tuple[int, ...] = ()


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE, as the serial frames use (docs/protocols.md, "Checksum")."""
    return binascii.crc_hqx(data, 0xFFFF)


def encode(seq: int, type_: int, count: int = 0, slots: bytes = b"") -> bytes:
    """A report's 16 bytes: id, seq, type, count/fault code, 8 value slots, 2 reserved, CRC."""
    if not 0 <= seq <= 255 or not 0 <= count <= 255 or len(slots) > MAX_DICE:
        raise ValueError(f"cannot encode seq {seq}, count {count}, {len(slots)} slots")
    body = bytes((REPORT_ID, seq, type_, count)) + slots.ljust(MAX_DICE, b"\0") + b"\0\0"
    return body + struct.pack(">H", crc16(body))


def shaken(seq: int) -> bytes:
    return encode(seq, SHAKEN)


def opened(seq: int, values: tuple[int, ...] | list[int]) -> bytes:
    """The dice values as the cup read them, die 1 first (each 0..255: the cup may read wrong)."""
    return encode(seq, OPENED, len(values), bytes(values))


def closed(seq: int) -> bytes:
    return encode(seq, CLOSED)


def fault(seq: int, name: str, die: int = 0) -> bytes:
    return encode(seq, FAULT, FAULT_CODES[name], bytes((die,)))


def decode(data: bytes | bytearray | memoryview) -> Decoded:
    """One report, or why it is not one (never raises)."""
    raw = bytes(data)
    if len(raw) != REPORT_SIZE:
        return Decoded(None, f"bad_length: {len(raw)} bytes, a report is {REPORT_SIZE}")
    if raw[0] != REPORT_ID:
        return Decoded(None, f"bad_id: report id 0x{raw[0]:02x}, not 0x{REPORT_ID:02x}")
    if struct.unpack(">H", raw[14:16])[0] != crc16(raw[:14]):
        return Decoded(None, "bad_crc: the report's CRC does not match")
    seq, type_, count = raw[1], raw[2], raw[3]
    name = TYPES.get(type_)
    if name is None:
        return Decoded(None, f"bad_type: report type 0x{type_:02x}")
    if type_ == OPENED:
        if count > MAX_DICE:
            return Decoded(None, f"bad_count: {count} dice, a report carries at most {MAX_DICE}")
        return Decoded(Report(seq, name, values=tuple(raw[4:4 + count])))
    if type_ == FAULT:
        fault_name = FAULTS.get(count)
        if fault_name is None:
            return Decoded(None, f"bad_fault: fault code {count}")
        return Decoded(Report(seq, name, fault=fault_name, die=raw[4]))
    return Decoded(Report(seq, name))


def to_event(report: Report, device: str) -> DeviceEvent:
    """The inbox event of a decoded report."""
    if report.type == "shaken":
        return CupShaken(device)
    if report.type == "opened":
        return DiceRead(device, report.values)
    if report.type == "closed":
        return CupClosed(device)
    assert report.fault is not None
    detail = FAULT_TEXT[report.fault] + (f" (die {report.die})" if report.die else "")
    return DeviceFault(device, report.fault, detail)


def encode_status(dice: int, state: str = "closed", last_fault: str | None = None,
                  firmware: tuple[int, int] = (1, 0), next_seq: int = 0) -> bytes:
    """GET_STATUS's 8 bytes: protocol, dice, cup state, last fault, firmware major and minor,
    the seq of the next report, reserved."""
    states = {v: k for k, v in CUP_STATES.items()}
    return bytes((PROTOCOL_VERSION, dice, states[state], FAULT_CODES.get(last_fault or "", 0),
                  firmware[0], firmware[1], next_seq, 0))


def decode_status(data: bytes | bytearray | memoryview) -> CupStatus | str:
    """GET_STATUS's answer, or why it cannot be read (never raises)."""
    raw = bytes(data)
    if len(raw) != STATUS_SIZE:
        return f"status is {len(raw)} bytes, not {STATUS_SIZE}"
    if raw[0] != PROTOCOL_VERSION:
        return f"cup speaks protocol {raw[0]}, this driver {PROTOCOL_VERSION}"
    if raw[2] not in CUP_STATES:
        return f"unknown cup state {raw[2]}"
    if raw[3] and raw[3] not in FAULTS:
        return f"unknown fault code {raw[3]}"
    return CupStatus(raw[0], raw[1], CUP_STATES[raw[2]], FAULTS.get(raw[3]), f"{raw[4]}.{raw[5]}", raw[6])


def encode_self_test(passed: bool, failing: tuple[int, ...] = ()) -> bytes:
    """SELF_TEST's 2 bytes: 0 passed or 1 failed, then a bit per die that failed (bit 0 = die 1;
    none set: the cup failed, no die in particular)."""
    mask = 0
    for die in failing:
        mask |= 1 << (die - 1)
    return bytes((0 if passed else 1, mask))


def decode_self_test(data: bytes | bytearray | memoryview) -> SelfTest | str:
    """The self-test's verdict, or why the answer cannot be read (never raises)."""
    raw = bytes(data)
    if len(raw) != SELF_TEST_SIZE or raw[0] not in (0, 1) or (raw[0] == 0 and raw[1] != 0):
        return f"self-test answer {raw.hex(' ') or '(empty)'} is not one of this protocol's"
    return SelfTest(raw[0] == 0, tuple(die for die in range(1, MAX_DICE + 1) if raw[1] & (1 << (die - 1))))
