"""Golden frames of docs/protocols.md, both ways: encode == hex, decode(hex) == event."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers import messages
from drivers.events import (
    CardCount,
    CardDrawn,
    CutCard,
    DeckVerified,
    DeviceFault,
    DeviceOnline,
    HandDelivered,
    ShoeEmpty,
    ShuffleComplete,
)
from drivers.framing import Frame, FrameDecoder, encode
from games.cards import card, cards

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocols.md"


def golden_rows() -> dict[str, tuple[str, int, str, bytes, bytes]]:
    text = DOC.read_text()
    table = text[text.index("<!-- golden:start -->"):text.index("<!-- golden:end -->")]
    rows = {}
    for line in table.splitlines()[3:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        name, direction, seq, type_, payload, hexed = cells
        rows[name.strip("`")] = (direction, int(seq), type_.strip("`"), payload.strip("`").encode("ascii"),
                                 bytes.fromhex(hexed.strip("`")))
    return rows


GOLDEN = golden_rows()

# name -> (message built by the codec's builders, parser, event the controller gets)
SHOE, SHUF = messages.parse_shoe, messages.parse_shuffler
EXPECTED = {
    "hello": (messages.hello("SIMSHOE", "1.0", reads=0), SHOE, DeviceOnline("shoe", "SIMSHOE 1.0", 0)),
    "cut_card": (messages.cut_card(), SHOE, CutCard("shoe")),
    "card": (messages.card_drawn(card("10H"), read=1), SHOE, CardDrawn("shoe", card("10H"), 1)),
    "card_joker": (messages.card_drawn(card("JK"), read=2), SHOE, CardDrawn("shoe", card("JK"), 2)),
    "fault_misread": (messages.fault("misread"), SHOE, DeviceFault("shoe", "misread", "shoe could not read the card it dealt")),
    "fault_double": (messages.fault("DOUBLE"), SHOE, DeviceFault("shoe", "double_card", "shoe dealt two cards at once")),
    "shoe_empty": (messages.shoe_empty(), SHOE, ShoeEmpty("shoe")),
    "heartbeat": (messages.heartbeat(), SHOE, None),
    "hello_shuffler": (messages.hello("SIMSHUF", "1.0"), SHUF, DeviceOnline("shuffler", "SIMSHUF 1.0")),
    "deck_check": (messages.deck_check(cards("AS 10H JK")), SHUF, DeckVerified("shuffler", tuple(cards("AS 10H JK")), 0)),
    "shuffle_complete": (messages.shuffle_complete(3), SHUF, ShuffleComplete("shuffler", 3)),
    "count": (messages.card_count(3), SHUF, CardCount("shuffler", 3)),
    "fault_jam": (messages.fault("jam"), SHUF, DeviceFault("shuffler", "jam", "device reports a jam")),
    "fault_door_open": (messages.fault("door_open"), SHUF, DeviceFault("shuffler", "door_open", "device reports its door open")),
    "fault_unreadable": (messages.fault("unreadable"), SHUF, DeviceFault("shuffler", "unreadable", "device reports a card it cannot read")),
    "fault_count_wrong": (messages.fault("count_wrong"), SHUF, DeviceFault("shuffler", "count_wrong", "device reports a wrong card count")),
    "status_request": (messages.request("S"), None, None),
    "deck_check_request": (messages.request("K"), None, None),
    "shuffle_request": (messages.request("F"), None, None),
    "count_request": (messages.request("T"), None, None),
    "ack": (messages.ack(1), None, None),
    "nak_crc": (messages.nak(None, "crc"), None, None),
    "nak_unknown": (messages.nak(4, "unknown"), None, None),
    "nak_bad": (messages.nak(5, "bad"), None, None),
    "hand": (messages.hand(cards("QS 10H 2C")), messages.parse_hand_shuffler,
             HandDelivered("shuffler", tuple(cards("QS 10H 2C")))),
}


def test_every_golden_row_is_checked_and_every_type_has_one():
    assert set(GOLDEN) == set(EXPECTED)
    device_types = {row[2] for row in GOLDEN.values() if "->ctl" in row[0] or row[0] == "both"}
    assert device_types == set("IHAXCUEKFTND")
    assert {row[2] for row in GOLDEN.values() if row[0].startswith("ctl")} == set("SKFT")


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_encode_matches_golden(name):
    _, seq, type_, payload, wire = GOLDEN[name]
    built = EXPECTED[name][0]
    assert built == messages.Message(type_, payload)
    assert encode(seq, built.type, built.payload) == wire


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_decode_golden(name):
    _, seq, type_, payload, wire = GOLDEN[name]
    decoder = FrameDecoder()
    assert decoder.feed(wire) == [Frame(seq, type_, payload)]
    assert not decoder.drops and not decoder.buf
    _, parse, event = EXPECTED[name]
    if parse is not None:
        decoded = parse(Frame(seq, type_, payload))
        assert decoded.event == event
        assert decoded.nak is None


def test_decode_golden_byte_by_byte():
    """A UART hands over bytes in any chunking: the result is the same."""
    stream = b"".join(row[4] for row in GOLDEN.values())
    decoder = FrameDecoder()
    frames = [f for b in stream for f in decoder.feed(bytes([b]))]
    assert [(f.seq, f.type, f.payload) for f in frames] == [r[1:4] for r in GOLDEN.values()]


def test_control_frames_parse():
    assert messages.parse_ack(Frame(0, "A", GOLDEN["ack"][3])) == 1
    assert messages.parse_nak(Frame(0, "N", b"- crc")) == (None, "crc")
    assert messages.parse_nak(Frame(0, "N", b"4 unknown")) == (4, "unknown")
    assert messages.parse_nak(Frame(0, "N", b"5 bad")) == (5, "bad")


def test_crc_check_value_named_in_the_doc():
    from drivers.framing import crc16
    assert crc16(b"123456789") == 0x29B1
    assert "0x29B1" in DOC.read_text()


def test_a_malformed_hand_never_names_its_cards():
    """A hand is dealt face down: a damaged one is reported without its bytes (DESIGN.md)."""
    for payload in (b"QS 1OH 2C", b"", b"QS  2C"):
        decoded = messages.parse_hand_shuffler(Frame(1, "D", payload))
        assert decoded.event == DeviceFault("shuffler", "unknown_card", "unknown card code in a hand")
        assert decoded.nak == "bad"
    assert messages.parse_shuffler(Frame(1, "D", b"QS 10H 2C")).nak == "unknown"  # a plain shuffler has no D
    with pytest.raises(ValueError, match="a hand holds at least one card"):
        messages.hand([])
