"""The simulator and the drivers put exactly docs/protocols.md's golden bytes on the wire."""

from __future__ import annotations

import queue
import re
import time
from pathlib import Path

from drivers.framing import FrameDecoder, encode
from drivers.shuffler import ShufflerDriver
from games.cards import card, cards
from games.decks import DeckSpec
from hw_sim.devices import SimHandShuffler, SimShoe, SimShuffler
from hw_sim.physical import CUT_CARD, Table

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocols.md"
_block = DOC.read_text().split("<!-- golden:start -->")[1].split("<!-- golden:end -->")[0]
GOLDEN = {m[0]: bytes.fromhex(m[1]) for m in re.findall(r"^\| `(\w+)` \|.*\| `([0-9a-f ]+)` \|$", _block, re.M)}


def assert_in_order(stream: bytes, names: list[str]) -> None:
    pos = 0
    for name in names:
        found = stream.find(GOLDEN[name], pos)
        assert found >= 0, f"golden {name} ({GOLDEN[name].hex(' ')}) not found in order in {stream.hex(' ')}"
        pos = found + len(GOLDEN[name])


def test_golden_table_parsed():
    assert len(GOLDEN) == 25


def test_shoe_session(hwsim_line, raw_peer):
    port, url = hwsim_line
    table = Table(DeckSpec("golden", (card("10H"), card("JK"))))
    table.shoe = [CUT_CARD, *table.boxes]
    table.boxes.clear()
    peer = raw_peer(url)
    shoe = SimShoe(table, port, heartbeat=None)
    shoe.start()
    try:
        shoe.draw()                                  # the cut card, then 10H
        shoe.draw()                                  # JK
        shoe.inject("misread", now=True)
        shoe.inject("double_card", now=True)
        assert shoe.draw() is None                   # empty
        peer.read_until(lambda fs: len([f for f in fs if f.type not in "AHN"]) >= 7)
        assert shoe.idle(2)
    finally:
        shoe.stop()
    assert_in_order(bytes(peer.stream), ["hello", "cut_card", "card", "card_joker", "fault_misread",
                                         "fault_double", "shoe_empty"])


def test_heartbeat(hwsim_line, raw_peer):
    port, url = hwsim_line
    peer = raw_peer(url)
    shoe = SimShoe(Table(DeckSpec("golden", (card("AS"),))), port, heartbeat=0.02)
    shoe.start()
    try:
        peer.read_until(lambda fs: any(f.type == "H" for f in fs))
    finally:
        shoe.stop()
    assert GOLDEN["heartbeat"] in peer.stream


def test_shuffler_session(hwsim_line, raw_peer):
    port, url = hwsim_line
    table = Table(DeckSpec("golden", tuple(cards("AS 10H JK"))))
    table.load_boxes_into_shuffler()
    peer = raw_peer(url)
    shuffler = SimShuffler(table, port, heartbeat=None)
    shuffler.start()

    def data_count() -> int:
        return len([f for f in peer.frames if f.type not in "AHN"])

    try:
        peer.read_until(lambda fs: data_count() == 1)
        for n, request in enumerate(("deck_check_request", "shuffle_request", "count_request"), start=2):
            peer.write(GOLDEN[request])
            peer.read_until(lambda fs, n=n: data_count() == n)
        for fault in ("jam", "door_open", "unreadable", "count_wrong"):
            shuffler.inject(fault)
        peer.read_until(lambda fs: data_count() == 8)
        peer.write(encode(4, "Z", b""))              # unknown type
        peer.write(encode(5, "S", b"x"))             # a request with a payload
        bad = bytearray(encode(6, "T", b""))
        bad[-2] ^= 0xFF
        peer.write(bytes(bad))                       # damaged
        peer.read_until(lambda fs: len([f for f in fs if f.type == "N"]) >= 3)
        assert shuffler.idle(2)
    finally:
        shuffler.stop()
    stream = bytes(peer.stream)
    assert_in_order(stream, ["hello_shuffler", "ack", "deck_check", "shuffle_complete", "count", "fault_jam",
                             "fault_door_open", "fault_unreadable", "fault_count_wrong"])
    for nak in ("nak_unknown", "nak_bad", "nak_crc"):     # answers to one read: any order
        assert GOLDEN[nak] in stream


def test_driver_requests(hwsim_line):
    """The controller's driver sends S on opening, then K, F, T: the golden request frames."""
    port, url = hwsim_line
    port.timeout = 0.05
    driver = ShufflerDriver("shuffler", url, queue.Queue(), heartbeat_timeout=5)
    driver.start()
    decoder, stream, seen = FrameDecoder(), bytearray(), []
    requests = iter([driver.request_deck_check, driver.request_shuffle, driver.request_count, None])
    deadline = time.monotonic() + 3
    try:
        while len(seen) < 4:
            assert time.monotonic() < deadline, f"only {seen}"
            data = port.read(max(1, port.in_waiting))
            stream += data
            for frame in decoder.feed(data):
                seen.append(frame)
                port.write(encode(0, "A", str(frame.seq)))
                request = next(requests)
                if request is not None:
                    request()
    finally:
        driver.stop()
    assert_in_order(bytes(stream), ["status_request", "deck_check_request", "shuffle_request", "count_request"])


def test_hand_shuffler_session(hwsim_line, raw_peer):
    """A hand-forming shuffler delivers its first hand as the golden ``hand`` frame."""
    port, url = hwsim_line
    table = Table(DeckSpec("golden", tuple(cards("QS 10H 2C"))))
    table.shuffled = list(table.boxes)
    table.boxes.clear()
    peer = raw_peer(url)
    device = SimHandShuffler(table, port, heartbeat=None)
    device.start()
    try:
        assert device.deliver_hand(3) == cards("QS 10H 2C")
        peer.read_until(lambda fs: any(f.type == "D" for f in fs))
    finally:
        device.stop()
    assert GOLDEN["hand"] in bytes(peer.stream)
    assert [c.face for c in table.layout] == cards("QS 10H 2C") and not table.shuffled
