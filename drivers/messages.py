"""The message layer of the shuffler and shoe protocols (docs/protocols.md).

A frame (:mod:`drivers.framing`) carries one message: a type letter and an
ASCII payload whose fields are separated by one space. This module names the
letters, builds payloads and parses them into :mod:`drivers.events`.

Parsing is *total*: :func:`parse_shoe` and :func:`parse_shuffler` accept any
:class:`~drivers.framing.Frame` and never raise. A message that cannot be
understood becomes a :class:`~drivers.events.DeviceFault` (``unknown_card``
or ``bad_message``) plus the NAK reason the link should answer with. The
fault's detail is fixed text that never contains payload bytes: a damaged
card frame may carry the identity of a card dealt face down, and DESIGN.md
forbids that from leaving the controller, error messages included.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from drivers.events import (
    CardCount,
    CardDrawn,
    CutCard,
    DeckVerified,
    DeviceEvent,
    DeviceFault,
    DeviceOnline,
    HandDelivered,
    ShoeEmpty,
    ShuffleComplete,
)
from drivers.framing import Frame
from games.cards import Card, try_card

# --- type letters ----------------------------------------------------------
HELLO = "I"        # device -> ctl: "<model> <firmware>"
HEARTBEAT = "H"    # device -> ctl: empty, not acknowledged
ACK = "A"          # both: "<seq>"
NAK = "N"          # both: "<seq>|- <reason>"
FAULT = "X"        # device -> ctl: "<CODE>"
CARD = "C"         # shoe -> ctl: "<card code>"
CUT = "U"          # shoe -> ctl: empty
EMPTY = "E"        # shoe -> ctl: empty
DECK_CHECK = "K"   # shuffler -> ctl: "<unreadable> <code>..."; ctl -> shuffler: empty (start one)
SHUFFLED = "F"     # shuffler -> ctl: "<count>"; ctl -> shuffler: empty (start a shuffle)
COUNT = "T"        # shuffler -> ctl: "<count>"; ctl -> shuffler: empty (count)
HAND = "D"         # hand-forming shuffler -> ctl: "<code> <code> ...": one hand, as it is delivered
STATUS = "S"       # ctl -> device: empty; the device answers HELLO

CONTROL_TYPES = frozenset((ACK, NAK, HEARTBEAT))
"""Link-level frames: never acknowledged, never handed to a message parser."""

SYNC_TYPES = frozenset((HELLO, STATUS))
"""Data frames a receiver always accepts, whatever their seq, and that restart
its duplicate detection: the first frame after a device or controller
restarts is one of these, and its seq may equal the last one seen before."""

SHOE_TYPES = frozenset((HELLO, FAULT, CARD, CUT, EMPTY))
SHUFFLER_TYPES = frozenset((HELLO, FAULT, DECK_CHECK, SHUFFLED, COUNT))
HAND_SHUFFLER_TYPES = SHUFFLER_TYPES | {HAND}
SHOE_REQUESTS = frozenset((STATUS,))
SHUFFLER_REQUESTS = frozenset((STATUS, DECK_CHECK, SHUFFLED, COUNT))

# NAK reasons (fixed words)
NAK_CRC = "crc"
NAK_UNKNOWN = "unknown"
NAK_BAD = "bad"
NAK_REASONS = frozenset((NAK_CRC, NAK_UNKNOWN, NAK_BAD))

FAULT_CODES: dict[str, str] = {
    "JAM": "jam",
    "DOOR_OPEN": "door_open",
    "UNREADABLE": "unreadable",
    "COUNT_WRONG": "count_wrong",
    "MISREAD": "misread",
    "DOUBLE": "double_card",
}
"""Wire fault code -> DeviceFault code. Shuffler: JAM, DOOR_OPEN, UNREADABLE,
COUNT_WRONG; shoe: MISREAD, DOUBLE (and a shoe may report JAM, DOOR_OPEN)."""

_FAULT_TEXT = {
    "jam": "device reports a jam",
    "door_open": "device reports its door open",
    "unreadable": "device reports a card it cannot read",
    "count_wrong": "device reports a wrong card count",
    "misread": "shoe could not read the card it dealt",
    "double_card": "shoe dealt two cards at once",
}

MAX_NUMBER_DIGITS = 6


class Message(NamedTuple):
    """One message before framing: pass as ``link.send(*message)``."""

    type: str
    payload: bytes = b""


class Decoded(NamedTuple):
    """What a frame means: the event for the inbox (or None) and the link's
    answer (None: acknowledge it; otherwise the NAK reason)."""

    event: DeviceEvent | None
    nak: str | None = None


# --- builders ----------------------------------------------------------------
def _ascii(text: str) -> bytes:
    return text.encode("ascii")


def hello(model: str, firmware: str, reads: int | None = None) -> Message:
    """``reads``: a card reader says how many cards it has read since it started."""
    if not (_is_field(model) and _is_field(firmware)):
        raise ValueError("model and firmware must be non-empty printable ASCII without spaces")
    text = f"{model} {firmware}" if reads is None else f"{model} {firmware} {_number(reads)}"
    return Message(HELLO, _ascii(text))


def heartbeat() -> Message:
    return Message(HEARTBEAT)


def ack(seq: int) -> Message:
    _check_seq(seq)
    return Message(ACK, _ascii(str(seq)))


def nak(seq: int | None, reason: str) -> Message:
    if reason not in NAK_REASONS:
        raise ValueError(f"NAK reason must be one of {sorted(NAK_REASONS)}, not {reason!r}")
    if seq is not None:
        _check_seq(seq)
    return Message(NAK, _ascii(f"{'-' if seq is None else seq} {reason}"))


def fault(code: str) -> Message:
    """``code`` is a wire code (``JAM``) or an event code (``jam``)."""
    wire = code if code in FAULT_CODES else {v: k for k, v in FAULT_CODES.items()}.get(code)
    if wire is None:
        raise ValueError(f"unknown fault code {code!r}: one of {sorted(FAULT_CODES)}")
    return Message(FAULT, _ascii(wire))


def card_drawn(card: Card, read: int | None = None) -> Message:
    """``read``: the shoe's own count of this read since it started (1, 2, ...): a gap in it is a
    card that never arrived."""
    return Message(CARD, _ascii(card.code if read is None else f"{card.code} {_number(read)}"))


def cut_card() -> Message:
    return Message(CUT)


def shoe_empty() -> Message:
    return Message(EMPTY)


def deck_check(cards: Iterable[Card], unreadable: int = 0) -> Message:
    """The shuffler's deck check: unreadable count, then every card in read order."""
    if unreadable < 0:
        raise ValueError("unreadable must not be negative")
    return Message(DECK_CHECK, _ascii(" ".join([str(unreadable), *(c.code for c in cards)])))


def hand(cards: Iterable[Card]) -> Message:
    """A hand-forming shuffler delivered one hand: its cards, in the order it formed them."""
    codes = [c.code for c in cards]
    if not codes:
        raise ValueError("a hand holds at least one card")
    return Message(HAND, _ascii(" ".join(codes)))


def shuffle_complete(count: int) -> Message:
    return Message(SHUFFLED, _ascii(_number(count)))


def card_count(count: int) -> Message:
    return Message(COUNT, _ascii(_number(count)))


def request(type_: str) -> Message:
    """A controller request (``S``, ``K``, ``F``, ``T``): always an empty payload."""
    if type_ not in SHUFFLER_REQUESTS:
        raise ValueError(f"no request type {type_!r}")
    return Message(type_)


def _number(n: int) -> str:
    if not 0 <= n < 10**MAX_NUMBER_DIGITS:
        raise ValueError(f"count {n} outside 0..{10**MAX_NUMBER_DIGITS - 1}")
    return str(n)


def _check_seq(seq: int) -> None:
    if not 0 <= seq <= 255:
        raise ValueError(f"seq {seq} outside 0..255")


# --- parsers -------------------------------------------------------------------
def _fields(payload: bytes) -> list[str] | None:
    """Fields of a well-formed payload, or None. Empty payload -> []."""
    if not payload:
        return []
    if any(b < 0x20 or b > 0x7E for b in payload):
        return None
    fields = payload.decode("ascii").split(" ")
    return None if any(f == "" for f in fields) else fields


def _is_field(text: str) -> bool:
    return bool(text) and text.isascii() and text.isprintable() and " " not in text


def _parse_number(text: str) -> int | None:
    if 0 < len(text) <= MAX_NUMBER_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def parse_ack(frame: Frame) -> int | None:
    """The seq an ``A`` frame acknowledges, or None if malformed."""
    fields = _fields(frame.payload)
    if not fields or len(fields) != 1:
        return None
    seq = _parse_number(fields[0])
    return seq if seq is not None and seq <= 255 else None


def parse_nak(frame: Frame) -> tuple[int | None, str] | None:
    """``(seq or None for '-', reason)`` of an ``N`` frame, or None if malformed."""
    fields = _fields(frame.payload)
    if not fields or len(fields) != 2 or fields[1] not in NAK_REASONS:
        return None
    if fields[0] == "-":
        return None, fields[1]
    seq = _parse_number(fields[0])
    return (seq, fields[1]) if seq is not None and seq <= 255 else None


def _bad(device: str, detail: str) -> Decoded:
    return Decoded(DeviceFault(device, "bad_message", detail), NAK_BAD)


def _unknown_type(device: str, frame: Frame, kind: str) -> Decoded:
    letter = frame.type if frame.type.isascii() and frame.type.isprintable() else f"0x{ord(frame.type):02x}"
    # The type letter is framing, not payload: naming it leaks nothing.
    return Decoded(DeviceFault(device, "bad_message", f"unknown message type {letter!r} from a {kind}"),
                   NAK_UNKNOWN)


def _parse_common(frame: Frame, device: str, fields: list[str]) -> Decoded | None:
    if frame.type == HELLO:
        reads = _parse_number(fields[2]) if len(fields) == 3 else None
        if len(fields) not in (2, 3) or (len(fields) == 3 and reads is None):
            return _bad(device, "hello is not '<model> <firmware> [<reads>]'")
        return Decoded(DeviceOnline(device, " ".join(fields[:2]), reads))
    if frame.type == FAULT:
        if len(fields) != 1 or fields[0] not in FAULT_CODES:
            return _bad(device, "fault frame with an unknown fault code")
        code = FAULT_CODES[fields[0]]
        return Decoded(DeviceFault(device, code, _FAULT_TEXT[code]))
    return None


def parse_shoe(frame: Frame, device: str = "shoe") -> Decoded:
    """Meaning of a frame from a shoe. Total: never raises."""
    if frame.type in CONTROL_TYPES:
        return Decoded(None)
    if frame.type not in SHOE_TYPES:
        return _unknown_type(device, frame, "shoe")
    fields = _fields(frame.payload)
    if fields is None:
        if frame.type == CARD:
            return Decoded(DeviceFault(device, "unknown_card", "unknown card code"), NAK_BAD)
        return _bad(device, "payload is not printable ASCII fields")
    common = _parse_common(frame, device, fields)
    if common is not None:
        return common
    if frame.type == CARD:
        found = try_card(fields[0]) if len(fields) in (1, 2) else None
        read = _parse_number(fields[1]) if len(fields) == 2 else None
        if found is None or (len(fields) == 2 and read is None):
            return Decoded(DeviceFault(device, "unknown_card", "unknown card code"), NAK_BAD)
        return Decoded(CardDrawn(device, found, read))
    if fields:
        return _bad(device, "cut-card and shoe-empty frames carry no payload")
    return Decoded(CutCard(device) if frame.type == CUT else ShoeEmpty(device))


def parse_shuffler(frame: Frame, device: str = "shuffler") -> Decoded:
    """Meaning of a frame from a shuffler. Total: never raises."""
    if frame.type in CONTROL_TYPES:
        return Decoded(None)
    if frame.type not in SHUFFLER_TYPES:
        return _unknown_type(device, frame, "shuffler")
    fields = _fields(frame.payload)
    if fields is None:
        return _bad(device, "payload is not printable ASCII fields")
    common = _parse_common(frame, device, fields)
    if common is not None:
        return common
    if frame.type == DECK_CHECK:
        if not fields or (unreadable := _parse_number(fields[0])) is None:
            return _bad(device, "deck check does not start with the unreadable count")
        found = [try_card(code) for code in fields[1:]]
        unknown = sum(c is None for c in found)
        if unknown:
            return Decoded(DeviceFault(device, "unknown_card",
                                       f"unknown card code in deck check ({unknown} of {len(found)})"),
                           NAK_BAD)
        return Decoded(DeckVerified(device, tuple(c for c in found if c is not None), unreadable))
    count = _parse_number(fields[0]) if len(fields) == 1 else None
    if count is None:
        what = "shuffle-complete" if frame.type == SHUFFLED else "count"
        return _bad(device, f"{what} frame does not carry one decimal number")
    return Decoded(ShuffleComplete(device, count) if frame.type == SHUFFLED else CardCount(device, count))


def parse_hand_shuffler(frame: Frame, device: str = "shuffler") -> Decoded:
    """A hand-forming shuffler: a shuffler's frames plus ``D``, one hand. Total: never raises.

    The hand's cards are dealt face down: a malformed ``D`` is reported without its bytes, as a
    card frame is (DESIGN.md)."""
    if frame.type != HAND:
        return parse_shuffler(frame, device)
    fields = _fields(frame.payload)
    if not fields:
        return Decoded(DeviceFault(device, "unknown_card", "unknown card code in a hand"), NAK_BAD)
    found = [try_card(code) for code in fields]
    if any(c is None for c in found):
        return Decoded(DeviceFault(device, "unknown_card", "unknown card code in a hand"), NAK_BAD)
    return Decoded(HandDelivered(device, tuple(c for c in found if c is not None)))


def decode_shoe(frame: Frame, device: str = "shoe") -> DeviceEvent | None:
    """The event a shoe frame carries (a DeviceFault if malformed); None for link frames."""
    return parse_shoe(frame, device).event


def decode_shuffler(frame: Frame, device: str = "shuffler") -> DeviceEvent | None:
    """The event a shuffler frame carries (a DeviceFault if malformed); None for link frames."""
    return parse_shuffler(frame, device).event


def parse_request(frame: Frame, accepted: frozenset[str]) -> str | None:
    """Device side: None if ``frame`` is a well-formed request in ``accepted``,
    else the NAK reason (``unknown`` type or ``bad`` payload)."""
    if frame.type not in accepted:
        return NAK_UNKNOWN
    return NAK_BAD if frame.payload else None
