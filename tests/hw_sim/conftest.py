"""Fixtures for the simulator tests: cables (hwsim:// and a real pty), an
inbox that waits for events, and a raw controller that speaks bytes."""

from __future__ import annotations

import itertools
import queue
import time
from collections.abc import Callable

import pytest
import serial

from drivers.framing import Frame, FrameDecoder, encode
from hw_sim import transport

_names = itertools.count()


@pytest.fixture(params=["hwsim", "pty"])
def line(request, tmp_path):
    """A cable: (the device's port, the URL the controller opens)."""
    if request.param == "hwsim":
        port = transport.hwsim_port(f"test{next(_names)}")
        url = port.url
    else:
        port = transport.open_pty(str(tmp_path / "ttySIM"))
        url = port.path
    yield port, url
    port.close()


@pytest.fixture
def hwsim_line():
    port = transport.hwsim_port(f"test{next(_names)}")
    yield port, port.url
    port.close()


class Inbox(queue.Queue):
    """The table's inbox, with a way to wait for one kind of event."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list = []

    def expect(self, kind: type | tuple[type, ...], timeout: float = 3.0, where: Callable = lambda e: True):
        """The next event of ``kind`` matching ``where``; others are kept in ``seen``."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                event = self.get(timeout=max(0.0, left))
            except queue.Empty:
                raise AssertionError(f"no {kind} within {timeout}s; saw {self.seen[-10:]}") from None
            self.seen.append(event)
            if isinstance(event, kind) and where(event):
                return event


@pytest.fixture
def inbox():
    return Inbox()


class RawPeer:
    """A controller written with bare pyserial: sends exact bytes, reads frames."""

    def __init__(self, url: str) -> None:
        self.port = serial.serial_for_url(url, baudrate=115200, timeout=0.05)
        self.decoder = FrameDecoder()
        self.stream = bytearray()
        self.frames: list[Frame] = []

    def write(self, data: bytes) -> None:
        self.port.write(data)

    def read_until(self, done: Callable[[list[Frame]], bool], timeout: float = 3.0,
                   ack: bool = True) -> list[Frame]:
        """Read (ACKing data frames if ``ack``) until ``done(frames)``."""
        deadline = time.monotonic() + timeout
        while not done(self.frames):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; frames so far: {self.frames}")
            data = self.port.read(max(1, self.port.in_waiting))
            self.stream += data
            for frame in self.decoder.feed(data):
                self.frames.append(frame)
                if ack and frame.type not in "ANH":
                    self.write(encode(0, "A", str(frame.seq)))
        return self.frames

    def data_frames(self) -> list[Frame]:
        return [f for f in self.frames if f.type not in "ANH"]

    def close(self) -> None:
        self.port.close()


@pytest.fixture
def raw_peer():
    peers: list[RawPeer] = []

    def make(url: str) -> RawPeer:
        peers.append(RawPeer(url))
        return peers[-1]

    yield make
    for p in peers:
        p.close()
