"""Property tests: the codecs are total and resynchronise on any bytes."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drivers import messages
from drivers.framing import MAX_PAYLOAD, STX, Frame, FrameDecoder, encode

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

types = st.sampled_from("IHAXCUEKFTSN") | st.characters(min_codepoint=0, max_codepoint=255)
payloads = st.binary(max_size=64) | st.sampled_from(
    [b"10H", b"JK", b"0 AS 10H JK", b"416", b"SIMSHOE 1.0", b"JAM", b"- crc", b"7 bad"])
frames = st.builds(Frame, st.integers(0, 255), st.sampled_from("IHAXCUEKFTSN"), payloads)
no_stx = st.binary(max_size=200).map(lambda b: b.replace(bytes([STX]), b"\x00"))


def drain(decoder: FrameDecoder, data: bytes) -> list[Frame]:
    """Feed, then let the line go quiet until nothing is buffered."""
    out = decoder.feed(data)
    while decoder.buf:
        out += decoder.expire()
    return out


def wire(frame: Frame) -> bytes:
    return encode(frame.seq, frame.type, frame.payload)


@SETTINGS
@given(st.lists(st.binary(max_size=300), max_size=8))
def test_decoder_never_raises_on_any_chunks(chunks):
    decoder = FrameDecoder()
    for chunk in chunks:
        decoder.feed(chunk)
        if chunk[:1] == b"\x00":
            decoder.expire()
    drain(decoder, b"")
    assert not decoder.buf


@SETTINGS
@given(st.integers(0, 255), types, st.binary(max_size=MAX_PAYLOAD + 16))
def test_message_parsers_never_raise(seq, type_, payload):
    frame = Frame(seq, type_, payload)
    for parse in (messages.parse_shoe, messages.parse_shuffler):
        decoded = parse(frame)
        assert decoded.nak in (None, "bad", "unknown")
    messages.parse_ack(frame)
    messages.parse_nak(frame)
    messages.parse_request(frame, messages.SHUFFLER_REQUESTS)


@SETTINGS
@given(st.binary(max_size=300), frames, st.binary(max_size=300), st.integers(1, 64))
def test_frame_in_garbage_is_recovered_exactly_once(before, frame, after, chunk):
    data = before + wire(frame) + after
    decoder = FrameDecoder()
    out: list[Frame] = []
    for i in range(0, len(data), chunk):
        out += decoder.feed(data[i:i + chunk])
    out += drain(decoder, b"")
    assert out.count(frame) == 1


@SETTINGS
@given(no_stx, frames)
def test_noise_count_is_the_garbage_length(garbage, frame):
    decoder = FrameDecoder()
    assert drain(decoder, garbage + wire(frame)) == [frame]
    assert decoder.drops.as_dict() == {"noise": len(garbage), "bad_length": 0, "bad_crc": 0, "bad_etx": 0}


@SETTINGS
@given(frames, st.data())
def test_corrupted_frame_is_dropped_and_the_next_one_found(frame, data):
    raw = bytearray(wire(frame))
    i = data.draw(st.integers(0, len(raw) - 1), label="index")
    raw[i] ^= data.draw(st.integers(1, 255), label="flip")
    follower = Frame((frame.seq + 1) % 256, "C", b"AS")
    decoder = FrameDecoder()
    out = drain(decoder, bytes(raw) + wire(follower))
    assert frame not in out or bytes(raw) == wire(frame)
    assert out.count(follower) == 1
    assert decoder.drops     # something was counted


@SETTINGS
@given(frames, st.data())
def test_truncated_frame_then_a_good_one(frame, data):
    raw = wire(frame)
    cut = data.draw(st.integers(1, len(raw) - 1), label="cut")
    decoder = FrameDecoder()
    out = drain(decoder, raw[:cut] + wire(frame))
    assert out == [frame]
    assert decoder.drops.bad_crc + decoder.drops.bad_etx + decoder.drops.bad_length >= 1


@SETTINGS
@given(st.lists(frames, min_size=1, max_size=10), st.lists(no_stx, min_size=10, max_size=10))
def test_stream_of_frames_between_stx_free_noise(frame_list, noises):
    data = b"".join(n + wire(f) for f, n in zip(frame_list, noises, strict=False))
    decoder = FrameDecoder()
    assert drain(decoder, data) == frame_list
    assert decoder.drops.noise == sum(len(n) for n in noises[:len(frame_list)])


def test_stalled_length_is_given_up_by_expire():
    """A garbage STX announcing 2000 bytes must not hold back the real frame."""
    frame = Frame(1, "C", b"KD")
    decoder = FrameDecoder()
    assert decoder.feed(bytes([STX, 0x07, 0xD0]) + wire(frame)) == []
    assert decoder.expire() == [frame]
    assert decoder.drops.bad_etx == 1
    assert decoder.expire() == []   # an idle line: nothing to give up
