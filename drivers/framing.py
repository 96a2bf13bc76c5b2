"""The frame layer shared by the shuffler and shoe protocols (docs/protocols.md).

::

    STX | LEN_HI LEN_LO | SEQ | TYPE | PAYLOAD (LEN bytes) | CRC_HI CRC_LO | ETX
    0x02                                                               0x03

CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over LEN..PAYLOAD, as
:func:`binascii.crc_hqx` computes it: the standard library's C
implementation, so no dependency and no hand-written CRC.

The decoder is pure and total: :meth:`FrameDecoder.feed` accepts any bytes,
never raises, resynchronises on the next STX after anything that is not a
whole valid frame, and counts every byte it throws away by reason. It never
keeps a dropped byte's value, so nothing read off a wire (a card code in a
corrupted frame) can leak through an error report.
"""

from __future__ import annotations

from binascii import crc_hqx
from dataclasses import dataclass, field

STX = 0x02
ETX = 0x03
MAX_PAYLOAD = 2048
"""Long enough for a deck check of 8 x 56 cards; short enough that a garbage
length field cannot stall resynchronisation for long."""
HEADER = 5  # STX, LEN(2), SEQ, TYPE
TRAILER = 3  # CRC(2), ETX
OVERHEAD = HEADER + TRAILER


@dataclass(frozen=True, slots=True)
class Frame:
    seq: int
    type: str  # one ASCII letter
    payload: bytes = b""

    @property
    def text(self) -> str:
        """The payload as text; payloads are ASCII by protocol."""
        return self.payload.decode("ascii", "replace")


def crc16(data: bytes) -> int:
    return crc_hqx(data, 0xFFFF)


def encode(seq: int, type_: str, payload: bytes | str = b"") -> bytes:
    """One frame's bytes. Raises ValueError on an argument no frame can carry."""
    if isinstance(payload, str):
        payload = payload.encode("ascii")
    if not 0 <= seq <= 255:
        raise ValueError(f"seq {seq} outside 0..255")
    if len(type_) != 1 or not type_.isascii():
        raise ValueError(f"frame type must be one ASCII letter, not {type_!r}")
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = bytes((len(payload) >> 8, len(payload) & 0xFF, seq, ord(type_))) + payload
    crc = crc16(body)
    return bytes((STX,)) + body + bytes((crc >> 8, crc & 0xFF, ETX))


@dataclass
class DropCounts:
    """Bytes thrown away, by reason. Reasons are fixed words, never data."""

    noise: int = 0       # bytes skipped while looking for an STX
    bad_length: int = 0  # frames whose length field exceeds MAX_PAYLOAD
    bad_crc: int = 0     # whole frames whose checksum did not match
    bad_etx: int = 0     # frames not closed by ETX

    def as_dict(self) -> dict[str, int]:
        return {"noise": self.noise, "bad_length": self.bad_length,
                "bad_crc": self.bad_crc, "bad_etx": self.bad_etx}

    def __sub__(self, other: DropCounts) -> DropCounts:
        return DropCounts(*(a - b for a, b in zip(self.as_dict().values(), other.as_dict().values(), strict=True)))

    def __bool__(self) -> bool:
        return any(self.as_dict().values())


@dataclass
class FrameDecoder:
    """Incremental, total decoder: bytes in, frames out, drops counted."""

    buf: bytearray = field(default_factory=bytearray)
    drops: DropCounts = field(default_factory=DropCounts)
    _shadow: int = 0
    """Bytes at the buffer's front that belong to a frame already counted as bad."""

    def feed(self, data: bytes) -> list[Frame]:
        """Append bytes; return every whole valid frame now available."""
        self.buf += data
        out: list[Frame] = []
        buf = self.buf
        while buf:
            start = buf.find(STX)
            if start < 0:
                self._noise(len(buf))
                buf.clear()
                break
            if start:
                self._noise(start)
                del buf[:start]
            if len(buf) < HEADER:
                break
            length = (buf[1] << 8) | buf[2]
            if length > MAX_PAYLOAD:
                self._reject("bad_length")
                continue
            end = HEADER + length + TRAILER
            if len(buf) < end:
                break
            crc = (buf[end - 3] << 8) | buf[end - 2]
            if buf[end - 1] != ETX:
                self._reject("bad_etx")
                continue
            if crc16(bytes(buf[1:HEADER + length])) != crc:
                # Its length and ETX hold, so its extent is known. Its bytes are scanned again (a real
                # frame may hide in a misaligned one) but nothing found inside it is counted: the
                # counts reach the pit, and a card frame's length and bytes are its card's, so
                # counting them would tell whether a damaged face-down card was a ten.
                self._reject("bad_crc")
                self._shadow = end - 1
                continue
            out.append(Frame(buf[3], chr(buf[4]), bytes(buf[HEADER:HEADER + length])))
            del buf[:end]
            self._shadow = 0
        return out

    def expire(self) -> list[Frame]:
        """The line went quiet with part of a frame buffered: give up on it.

        A garbage STX followed by a plausible length would otherwise make the
        decoder wait for up to MAX_PAYLOAD bytes that never come, holding
        back every real frame behind it. The link calls this when no byte
        arrived for a frame gap; the stalled STX is dropped as a frame not
        closed by ETX (``bad_etx``) and the rest is scanned again.
        """
        if not self.buf:
            return []
        self._reject("bad_etx")
        return self.feed(b"")

    def _reject(self, reason: str) -> None:
        """Drop the STX of a frame that failed, so the scan resumes after it (uncounted when it lies
        inside a frame already counted as bad)."""
        if self._shadow:
            self._shadow -= 1
        else:
            setattr(self.drops, reason, getattr(self.drops, reason) + 1)
        del self.buf[:1]

    def _noise(self, n: int) -> None:
        """``n`` bytes skipped; those inside a frame already counted as bad are not noise."""
        hidden = min(n, self._shadow)
        self._shadow -= hidden
        self.drops.noise += n - hidden
