"""A damaged card frame tells the pit nothing about its card: the codec's drop counts, which
reach the pit as ``line_errors``, are the same whatever card the frame carried.

They used to differ for a ten: a frame that failed its checksum was rescanned byte by byte, its
bytes counted as noise, and "10H" is one byte longer than "QS" (a leak of a face-down card)."""

from __future__ import annotations

import pytest

from drivers import messages
from drivers.framing import HEADER, TRAILER, FrameDecoder, encode
from games.cards import JOKER, STANDARD_RANKS, SUITS, Card

CARDS = [Card(r, s) for s in SUITS for r in STANDARD_RANKS] + [JOKER]
NEXT = encode(7, "H", b"")  # a heartbeat after the damaged frame


def drops_after(frame: bytes) -> dict:
    """Feed a damaged frame and a good one; give up stalls as the link does when the line goes
    quiet (FrameDecoder.expire); the drop counts once the good frame is out."""
    decoder = FrameDecoder()
    frames = decoder.feed(frame + NEXT)
    for _ in range(len(frame)):
        if frames:
            break
        frames = decoder.expire()
    assert [f.type for f in frames] == ["H"], "the frame after the damaged one is read"
    return decoder.drops.as_dict()


@pytest.mark.parametrize("where", ["payload", "crc"])
def test_a_damaged_card_frame_counts_the_same_for_every_card(where):
    seen = set()
    for c in CARDS:
        wire = bytearray(encode(3, *messages.card_drawn(c)))
        index = HEADER if where == "payload" else len(wire) - TRAILER
        wire[index] ^= 0x40
        seen.add(tuple(sorted(drops_after(bytes(wire)).items())))
    assert seen == {(("bad_crc", 1), ("bad_etx", 0), ("bad_length", 0), ("noise", 0))}
