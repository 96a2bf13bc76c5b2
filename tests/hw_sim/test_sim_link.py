"""The reliable link, both ends real Link objects, over hwsim:// and a real pty."""

from __future__ import annotations

import queue
import random
import threading

import pytest
import serial

from drivers.framing import Frame, encode
from drivers.link import Link


class Ends:
    """A device Link on the device port and a controller Link on the URL."""

    def __init__(self, device_port, url: str, *, retransmit: float = 0.05, ctl_verdict=None,
                 heartbeat: float | None = None, heartbeat_timeout: float | None = None,
                 wrap=None) -> None:
        self.received: queue.Queue[Frame] = queue.Queue()
        self.device_received: queue.Queue[Frame] = queue.Queue()
        self.status: queue.Queue[tuple[str, str]] = queue.Queue()
        self.drops: list[dict] = []
        self.lost: queue.Queue[str] = queue.Queue()
        self.opened = threading.Event()
        verdict = ctl_verdict or (lambda frame: None)

        def on_ctl_frame(frame: Frame) -> str | None:
            self.received.put(frame)
            return verdict(frame)

        def on_dev_frame(frame: Frame) -> None:
            self.device_received.put(frame)

        def open_ctl():
            port = serial.serial_for_url(url, baudrate=115200, timeout=0.5)
            return wrap(port) if wrap else port

        self.device = Link(lambda: device_port, name="dev", on_frame=on_dev_frame, retransmit=retransmit,
                           heartbeat=heartbeat, on_link_lost=self.lost.put)
        self.ctl = Link(open_ctl, name="ctl", on_frame=on_ctl_frame, retransmit=retransmit,
                        heartbeat_timeout=heartbeat_timeout, on_drops=self.drops.append,
                        on_online=lambda t: self.status.put(("online", t)),
                        on_offline=lambda r: self.status.put(("offline", r)),
                        on_open=self.opened.set)

    def __enter__(self) -> Ends:
        self.device.start()
        self.ctl.start()
        assert self.opened.wait(2), "controller end did not open"
        return self

    def __exit__(self, *exc: object) -> None:
        self.ctl.stop()
        self.device.stop()

    def take(self, n: int, timeout: float = 5.0) -> list[Frame]:
        return [self.received.get(timeout=timeout) for _ in range(n)]


def cards_payloads(n: int) -> list[bytes]:
    faces = [f"{r}{s}" for s in "CDHS" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    return [faces[i % 52].encode() for i in range(n)]


def test_corrupted_card_frame_is_retransmitted_and_delivered_once_in_order(line):
    port, url = line
    with Ends(port, url) as ends:
        ends.device.send("C", b"AS")
        assert ends.take(1)[0].payload == b"AS"
        ends.device.corrupt_next()
        for code in (b"KH", b"2D", b"10C"):
            ends.device.send("C", code)
        got = ends.take(3)
        assert [f.payload for f in got] == [b"KH", b"2D", b"10C"]
        assert [f.seq for f in got] == [1, 2, 3]
        assert ends.device.idle(2)
        assert ends.received.empty()
        assert ends.ctl.stats["drops"]["bad_crc"] == 1
        assert ends.ctl.stats["naks_out"] >= 1
        assert ends.device.stats["retransmits"] >= 1


def test_duplicate_is_reacked_and_not_delivered_twice(line, raw_peer):
    """A raw controller sends the same data frame twice (its ACK was 'lost')."""
    port, url = line
    frames: list[Frame] = []
    link = Link(lambda: port, name="dev", on_frame=lambda f: frames.append(f))
    link.start()
    try:
        peer = raw_peer(url)
        frame = encode(9, "K", b"")
        peer.write(frame)
        peer.read_until(lambda fs: len(fs) >= 1, ack=False)
        peer.write(frame)
        acks = peer.read_until(lambda fs: len(fs) >= 2, ack=False)
        assert [(f.type, f.payload) for f in acks] == [("A", b"9"), ("A", b"9")]
        assert frames == [Frame(9, "K", b"")]
        assert link.stats["duplicates"] == 1
    finally:
        link.stop()


class LoseFirstAck:
    """The controller's port, but the first ACK it writes never reaches the wire."""

    def __init__(self, port) -> None:
        self._port = port
        self.lost = 0

    def write(self, data: bytes):
        if self.lost == 0 and data[4:5] == b"A":
            self.lost += 1
            return len(data)
        return self._port.write(data)

    def __getattr__(self, name):
        return getattr(self._port, name)

    def __setattr__(self, name, value):
        if name in ("_port", "lost"):
            object.__setattr__(self, name, value)
        else:
            setattr(self._port, name, value)


def test_lost_ack_gives_a_duplicate_that_is_not_delivered(hwsim_line):
    port, url = hwsim_line
    with Ends(port, url, wrap=LoseFirstAck) as ends:
        ends.device.send("C", b"QS")
        ends.device.send("C", b"QD")
        assert [f.payload for f in ends.take(2)] == [b"QS", b"QD"]
        assert ends.device.idle(2)
        assert ends.received.empty()
        assert ends.ctl.stats["duplicates"] == 1


def test_thousand_cards_in_order_under_garbage(line):
    port, url = line
    rng = random.Random(7)
    payloads = cards_payloads(1000)
    with Ends(port, url, retransmit=0.1) as ends:
        for i, payload in enumerate(payloads):
            ends.device.send("C", payload)
            if rng.random() < 0.1:
                ends.device.send_raw(rng.randbytes(rng.randrange(1, 64)))
            if i % 100 == 99:    # keep the garbage between frames of a live exchange
                assert ends.device.idle(10)
        got = ends.take(1000)
        assert [f.payload for f in got] == payloads
        assert [f.seq for f in got] == [i % 256 for i in range(1000)]
        assert ends.device.idle(5)
        assert ends.received.empty()
        assert ends.device.stats["link_lost"] == 0
        assert sum(d["noise"] for d in ends.drops) > 0


def test_garbage_length_field_does_not_hold_back_frames(hwsim_line):
    port, url = hwsim_line
    with Ends(port, url, retransmit=5.0) as ends:     # no retransmission: only the frame gap helps
        ends.device.send("C", b"AS")
        ends.take(1)
        ends.device.send_raw(b"\x02\x07\xd0")           # STX announcing 2000 bytes
        ends.device.send("C", b"KS")
        assert ends.take(1, timeout=1)[0].payload == b"KS"


def test_drop_counts_are_reported_as_deltas(hwsim_line):
    port, url = hwsim_line
    with Ends(port, url) as ends:
        ends.device.send("C", b"AS")
        ends.take(1)
        ends.device.send_raw(bytes(range(3, 53)))       # 50 bytes, no STX
        ends.device.send("C", b"KS")
        ends.take(1)
        assert sum(d["noise"] for d in ends.drops) == 50
        assert ends.ctl.stats["drops"]["noise"] == 50


def test_a_refused_frame_is_sent_once_seen_once_and_holds_nothing_up(hwsim_line):
    """NAK bad: the peer read the frame whole and refused it (and reported why). Sending it again
    would be refused again and, stop-and-wait, hold up every frame behind it -- for ever, on a
    device that never gives a frame up. The sender drops it at once and goes on."""
    port, url = hwsim_line
    with Ends(port, url, retransmit=0.02, ctl_verdict=lambda f: "bad" if f.payload == b"??" else None) as ends:
        ends.device.send("C", b"??")
        ends.device.send("C", b"AS")
        assert [f.payload for f in ends.take(2)] == [b"??", b"AS"]
        assert ends.device.idle(2)
        assert ends.device.stats["naks_in"] == 1 and ends.device.stats["rejected"] == 1
        assert ends.device.stats["retransmits"] == 0 and ends.lost.empty()


def test_link_lost_when_nobody_answers(hwsim_line):
    port, _ = hwsim_line
    lost: queue.Queue[str] = queue.Queue()
    link = Link(lambda: port, name="dev", on_frame=lambda f: None, retransmit=0.01, on_link_lost=lost.put)
    link.start()
    try:
        link.send("U")
        link.send("E")
        assert [lost.get(timeout=2), lost.get(timeout=2)] == ["U", "E"]
        assert link.stats["data_out"] == 2 and link.stats["retransmits"] == 10
    finally:
        link.stop()


def test_heartbeat_supervision(hwsim_line):
    port, url = hwsim_line
    with Ends(port, url, heartbeat=0.03, heartbeat_timeout=0.2) as ends:
        assert ends.status.get(timeout=2) == ("online", "H")
        assert ends.ctl.alive
        ends.device.mute()
        assert ends.status.get(timeout=2) == ("offline", "heartbeat_lost")
        assert not ends.ctl.alive
        ends.device.mute(False)
        assert ends.status.get(timeout=2) == ("online", "H")


def test_send_refuses_frames_no_peer_could_take(hwsim_line):
    port, _ = hwsim_line
    link = Link(lambda: port, on_frame=lambda f: None)
    for type_, payload in (("A", b"1"), ("CC", b""), ("C", bytes(3000))):
        with pytest.raises(ValueError):
            link.send(type_, payload)


def test_stop_is_prompt_and_idempotent(line):
    port, url = line
    ends = Ends(port, url)
    ends.__enter__()
    done = threading.Event()

    def stop() -> None:
        ends.__exit__()
        ends.__exit__()
        done.set()

    threading.Thread(target=stop, daemon=True).start()
    assert done.wait(1.5)
