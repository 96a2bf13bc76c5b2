"""The message layer: malformed frames become faults that never echo payload bytes."""

from __future__ import annotations

import pytest

from drivers import messages
from drivers.events import DeckVerified, DeviceFault
from drivers.framing import Frame
from games.cards import card, cards


def fault_of(decoded: messages.Decoded) -> DeviceFault:
    assert isinstance(decoded.event, DeviceFault), decoded
    return decoded.event


@pytest.mark.parametrize("payload", [b"QX", b"10X", b"1OH", b"as", b"AS ", b" AS", b"AS KS", b"",
                                     b"\xff\x00", b"10\x03H", b"J K", b"JOKER"])
def test_unknown_card_code_is_a_fault_without_the_bytes(payload):
    decoded = messages.parse_shoe(Frame(3, "C", payload))
    fault = fault_of(decoded)
    assert (fault.device, fault.code, fault.detail) == ("shoe", "unknown_card", "unknown card code")
    assert decoded.nak == "bad"


def test_fault_details_never_contain_payload_text():
    """Every malformed frame of every type: the detail has none of the payload's fields."""
    secret = "QH"   # a real card code, as a corrupted frame might carry one
    for type_ in "IXCUEKFTZSq":
        for payload in (secret, f"{secret} {secret}", f"1 {secret} ZZ", f"x{secret}"):
            for parse in (messages.parse_shoe, messages.parse_shuffler):
                decoded = parse(Frame(0, type_, payload.encode()))
                if isinstance(decoded.event, DeviceFault):
                    assert secret not in decoded.event.detail
                    assert decoded.nak in ("bad", "unknown")


@pytest.mark.parametrize(("type_", "payload", "code", "nak"), [
    ("F", b"many", "bad_message", "bad"),
    ("F", b"-3", "bad_message", "bad"),
    ("F", b"1234567", "bad_message", "bad"),
    ("F", b"", "bad_message", "bad"),
    ("T", b"3 4", "bad_message", "bad"),
    ("X", b"FIRE", "bad_message", "bad"),
    ("X", b"jam", "bad_message", "bad"),
    ("I", b"SIMSHUF", "bad_message", "bad"),
    ("I", b"A B C", "bad_message", "bad"),
    ("K", b"", "bad_message", "bad"),
    ("K", b"x AS", "bad_message", "bad"),
    ("K", b"0 AS ZZ", "unknown_card", "bad"),
    ("K", b"0  AS", "bad_message", "bad"),
    ("C", b"AS", "bad_message", "unknown"),     # a shuffler deals no cards
    ("Z", b"", "bad_message", "unknown"),
])
def test_malformed_shuffler_frames(type_, payload, code, nak):
    decoded = messages.parse_shuffler(Frame(0, type_, payload))
    assert fault_of(decoded).code == code
    assert decoded.nak == nak


@pytest.mark.parametrize(("type_", "payload"), [("U", b"x"), ("E", b" "), ("K", b"0"), ("\x00", b"")])
def test_malformed_shoe_frames(type_, payload):
    decoded = messages.parse_shoe(Frame(0, type_, payload))
    assert fault_of(decoded).code == "bad_message"
    assert decoded.nak in ("bad", "unknown")


def test_unknown_type_names_the_letter_only():
    decoded = messages.parse_shoe(Frame(0, "Z", b"QH"))
    assert fault_of(decoded).detail == "unknown message type 'Z' from a shoe"
    assert messages.parse_shoe(Frame(0, "\x07", b"")).event.detail.startswith("unknown message type '0x07'")


def test_deck_check_keeps_read_order_and_unreadable():
    decoded = messages.parse_shuffler(Frame(1, "K", b"2 KS AS KS"))
    assert decoded.event == DeckVerified("shuffler", tuple(cards("KS AS KS")), 2)
    assert messages.parse_shuffler(Frame(1, "K", b"0")).event == DeckVerified("shuffler", (), 0)


def test_control_frames_are_not_messages():
    for type_ in "ANH":
        assert messages.parse_shoe(Frame(0, type_, b"junk")) == messages.Decoded(None)
        assert messages.decode_shuffler(Frame(0, type_, b"")) is None


@pytest.mark.parametrize("payload", [b"", b"x", b"256", b"1 2", b"-1", b"01x"])
def test_bad_acks_are_ignored(payload):
    assert messages.parse_ack(Frame(0, "A", payload)) is None


@pytest.mark.parametrize("payload", [b"", b"- ", b"- why", b"300 crc", b"x bad", b"1 bad extra"])
def test_bad_naks_are_ignored(payload):
    assert messages.parse_nak(Frame(0, "N", payload)) is None


def test_device_side_request_parsing():
    assert messages.parse_request(Frame(0, "S", b""), messages.SHOE_REQUESTS) is None
    assert messages.parse_request(Frame(0, "K", b""), messages.SHOE_REQUESTS) == "unknown"
    assert messages.parse_request(Frame(0, "K", b""), messages.SHUFFLER_REQUESTS) is None
    assert messages.parse_request(Frame(0, "F", b"now"), messages.SHUFFLER_REQUESTS) == "bad"


def test_builders_refuse_what_no_peer_could_parse():
    with pytest.raises(ValueError):
        messages.hello("SIM SHOE", "1.0")
    with pytest.raises(ValueError):
        messages.fault("fire")
    with pytest.raises(ValueError):
        messages.shuffle_complete(-1)
    with pytest.raises(ValueError):
        messages.nak(3, "because")
    with pytest.raises(ValueError):
        messages.ack(256)
    with pytest.raises(ValueError):
        messages.request("C")
    assert messages.card_drawn(card("MC")) == messages.Message("C", b"MC")
