"""USB over a Unix socket (drivers.usb_socket, hw_sim.usb_socket): what the wire carries beyond
the driver's battery (tests/drivers/test_dice_cup.py runs that battery over the socket too): a lost
or hung server looks like an unplugged cup, and every message either side may not send gets a
specific error. The peers that misbehave here are raw sockets speaking bytes, not our code."""

from __future__ import annotations

import errno
import json
import os
import queue
import shutil
import socket
import struct
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import usb.core
import usb.util

from drivers.dice_cup import DiceCupDriver
from drivers.events import DeviceOffline, DeviceOnline, DiceRead
from drivers.usb_backends import UsbBackendError, resolve
from drivers.usb_socket import MAX_MESSAGE, UnixSocketBackend, encode_message, read_message
from hw_sim.dice_cup import PRODUCT_ID, VENDOR_ID, SimDiceCup
from hw_sim.usb_backend import SimUsbBus
from hw_sim.usb_socket import UsbSocketError, UsbSocketServer

WAIT = 5.0


@pytest.fixture
def folder() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="tc-usb-", dir="/tmp"))   # a socket's path holds 107 bytes
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def served(folder: Path) -> Iterator[tuple[SimDiceCup, UsbSocketServer]]:
    bus = SimUsbBus(f"sock-{folder.name}")
    cup = bus.attach(SimDiceCup(serial="CUP-S"))
    server = UsbSocketServer(bus, str(folder / "cup.sock")).start()
    yield cup, server
    server.stop()


def _driver(url: str, inbox: queue.Queue) -> DiceCupDriver:
    driver = DiceCupDriver("cup", inbox, vendor_id=VENDOR_ID, product_id=PRODUCT_ID, backend=url,
                           read_timeout=0.05, reconnect_max=0.2)
    driver.start()
    return driver


# --- a lost server is an unplugged cup ------------------------------------------------------------

def test_the_simulator_stopping_is_an_unplug_and_a_new_one_is_a_replug(served) -> None:
    cup, server = served
    inbox: queue.Queue = queue.Queue()
    driver = _driver(server.url, inbox)
    try:
        assert inbox.get(timeout=WAIT) == DeviceOnline("cup", "SIMCUP 1.0", serial="CUP-S")
        cup.shake((1, 2, 3))
        assert [inbox.get(timeout=WAIT) for _ in range(3)][1] == DiceRead("cup", (1, 2, 3))
        server.stop()                                   # the simulator went away
        assert inbox.get(timeout=WAIT) == DeviceOffline("cup", "unplugged")
        assert not driver.alive
        assert not os.path.exists(server.path)          # nothing left at the path: nothing is found there
        bus = SimUsbBus("sock-again")                   # a new simulator, a new cup, on the same path
        again = bus.attach(SimDiceCup(serial="CUP-T"))
        restarted = UsbSocketServer(bus, server.path).start()
        try:
            assert inbox.get(timeout=WAIT) == DeviceOnline("cup", "SIMCUP 1.0", serial="CUP-T")
            again.shake((6, 6, 5))
            assert [inbox.get(timeout=WAIT) for _ in range(3)][1] == DiceRead("cup", (6, 6, 5))
            assert driver.stats["offline"] == 1
        finally:
            driver.stop()
            restarted.stop()
    finally:
        driver.stop()


def test_nothing_at_the_path_is_no_device_and_a_path_that_is_no_socket_is_named(folder: Path) -> None:
    assert list(usb.core.find(find_all=True, backend=UnixSocketBackend(str(folder / "none.sock")))) == []
    (folder / "file").write_text("not a socket")
    with pytest.raises(usb.core.USBError) as caught:
        list(usb.core.find(find_all=True, backend=UnixSocketBackend(str(folder / "file"))))
    assert caught.value.strerror == f"USB socket {folder / 'file'}: what is there is not a socket"


def test_a_session_s_claim_ends_with_its_connection(served) -> None:
    """A program that claimed the cup and died (its connection closed) holds it no longer."""
    cup, server = served
    other = UnixSocketBackend(server.path)
    dev = usb.core.find(idVendor=VENDOR_ID, idProduct=PRODUCT_ID, backend=other)
    usb.util.claim_interface(dev, 0)
    assert cup.claimed_by is not None
    other.close()
    inbox: queue.Queue = queue.Queue()
    driver = _driver(server.url, inbox)
    try:
        assert isinstance(inbox.get(timeout=WAIT), DeviceOnline)
    finally:
        driver.stop()
    with pytest.raises(usb.core.USBError) as caught:   # its handles died with it
        dev.ctrl_transfer(0xC0, 1, 0, 0, 8)
    assert caught.value.errno == errno.ENODEV


# --- a server that breaks the protocol ------------------------------------------------------------

class RawServer:
    """A peer at the path that answers each request with the bytes a test gives (or nothing)."""

    def __init__(self, path: Path, answer) -> None:
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(path))
        self.listener.listen(1)
        self.answer = answer
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        self.conns.append(conn)
        stream = conn.makefile("rb")
        while (request := read_message(stream)) is not None:
            reply = self.answer(request)
            if reply is not None:
                conn.sendall(reply)

    def close(self) -> None:
        for c in self.conns:
            c.close()
        self.listener.close()


def _reply(request: dict, **body) -> bytes:
    return encode_message({"id": request["id"], **body})


def _framed(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


@pytest.mark.parametrize("answer, why", [
    (lambda r: struct.pack(">I", 0), "the server sent a message of 0 bytes: 1 to 65536"),
    (lambda r: struct.pack(">I", MAX_MESSAGE + 1), "the server sent a message of 65537 bytes: 1 to 65536"),
    (lambda r: _framed(b"{not json"), "the server sent a message that is not UTF-8 JSON (JSONDecodeError)"),
    (lambda r: _framed(b"\xff\xfe"), "the server sent a message that is not UTF-8 JSON (UnicodeDecodeError)"),
    (lambda r: _framed(b"[1, 2]"), "the server sent a message that is a JSON list, not an object"),
    (lambda r: encode_message({"id": 999, "result": {}}), "the server sent a reply to no request in flight (id 999)"),
    (lambda r: encode_message({"id": None, "error": {"kind": "bad_request", "text": "what?"}}),
     "the server sent a reply to no request in flight (id None): what?"),
    (lambda r: _reply(r), "the reply to enumerate has neither a result nor an error"),
    (lambda r: _reply(r, result={"devices": "all"}), "the reply to enumerate has no list of device ids"),
    (lambda r: _reply(r, error={"kind": "meltdown"}), "the reply to enumerate has an error this protocol does not know"),
    (lambda r: _reply(r, error={"kind": "bad_request", "text": "no such thing"}),
     "the server refused enumerate: no such thing"),
])
def test_a_bad_message_from_the_server_is_named(folder: Path, answer, why: str) -> None:
    raw = RawServer(folder / "bad.sock", answer)
    try:
        with pytest.raises(usb.core.USBError) as caught:
            list(usb.core.find(find_all=True, backend=UnixSocketBackend(str(folder / "bad.sock"))))
        assert caught.value.errno == errno.EPROTO
        assert caught.value.strerror == f"USB socket {folder / 'bad.sock'}: {why}"
    finally:
        raw.close()


def test_bad_data_in_a_read_reply_is_named(folder: Path) -> None:
    """Descriptors served right, then an interrupt read whose data is not hex, or too long."""
    bus = SimUsbBus("sock-data")
    bus.attach(SimDiceCup())
    real = UsbSocketServer(bus, str(folder / "real.sock")).start()
    relay = RawClient(real.path)          # everything but the reads goes to the real server
    bad_data = iter(["zz", "00" * 17])

    def answer(request: dict) -> bytes:
        if request["op"] == "intr_read":
            return _reply(request, result={"data": next(bad_data)})
        return encode_message(relay.request(**request))
    raw = RawServer(folder / "relay.sock", answer)
    try:
        dev = usb.core.find(idVendor=VENDOR_ID, idProduct=PRODUCT_ID, backend=UnixSocketBackend(str(folder / "relay.sock")))
        usb.util.claim_interface(dev, 0)
        with pytest.raises(usb.core.USBError) as caught:
            dev.read(0x81, 16, timeout=100)
        assert caught.value.errno == errno.EPROTO and caught.value.strerror.endswith(
            "the reply to intr_read has data that is not hex")
        with pytest.raises(usb.core.USBError) as caught:
            dev.read(0x81, 16, timeout=100)
        assert caught.value.errno == errno.EOVERFLOW and caught.value.strerror.endswith(
            "the reply to intr_read has 17 bytes for a buffer of 16")
    finally:
        raw.close()
        relay.close()
        real.stop()


def test_a_server_that_does_not_answer_is_lost_not_waited_for(folder: Path) -> None:
    raw = RawServer(folder / "mute.sock", lambda r: None)
    try:
        with pytest.raises(usb.core.USBError) as caught:
            list(usb.core.find(find_all=True, backend=UnixSocketBackend(str(folder / "mute.sock"), call_wait=0.2)))
        assert caught.value.errno == errno.ENODEV
        assert caught.value.strerror.endswith("the server did not answer enumerate within 0.2 s")
    finally:
        raw.close()


# --- a client that breaks the protocol ------------------------------------------------------------

class RawClient:
    def __init__(self, path: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.sock.settimeout(WAIT)
        self.stream = self.sock.makefile("rb")

    def ask(self, data: bytes) -> dict | None:
        self.sock.sendall(data)
        return read_message(self.stream)

    def request(self, **message) -> dict:
        answer = self.ask(encode_message(message))
        assert answer is not None
        return answer

    def close(self) -> None:
        self.sock.close()


@pytest.mark.parametrize("message, why", [
    ({"op": "enumerate"}, "a request needs an id, a positive integer"),
    ({"id": 0, "op": "enumerate"}, "a request needs an id, a positive integer"),
    ({"id": 1, "op": "format_disk"}, "unknown op 'format_disk'; the ops are enumerate, device_descriptor"),
    ({"id": 1, "op": "device_descriptor"}, "device_descriptor: 'dev' must be an integer 1..2147483648"),
    ({"id": 1, "op": "device_descriptor", "dev": 42}, "device_descriptor: no device 42 was enumerated on this server"),
    ({"id": 1, "op": "claim_interface", "handle": 7, "intf": 0},
     "claim_interface: no handle 7 is open in this connection"),
    ({"id": 1, "op": "intr_read", "handle": 1, "ep": 0x81, "intf": 0, "size": 10**6, "timeout": 100},
     "intr_read: 'size' must be an integer 0..16384"),
    ({"id": 1, "op": "intr_write", "handle": 1, "ep": 1, "intf": 0, "data": "xyz", "timeout": 100},
     "intr_write: 'data' must be a hex string"),
    ({"id": 1, "op": "ctrl_transfer", "handle": 1, "request_type": 0x40, "request": 1, "value": 0, "index": 0,
      "data": None, "timeout": 100}, "ctrl_transfer: 'data' must be a hex string"),
    ({"id": 1, "op": "open", "dev": True}, "open: 'dev' must be an integer 1..2147483648"),
])
def test_a_bad_request_is_answered_naming_what_is_wrong_and_the_session_goes_on(served, message, why) -> None:
    _cup, server = served
    client = RawClient(server.path)
    try:
        answer = client.request(**message)
        assert answer["error"]["kind"] == "bad_request"
        assert answer["error"]["text"].startswith(why), answer
        rid = message.get("id")
        assert answer["id"] == (rid if isinstance(rid, int) and rid > 0 else None)
        devices = client.request(id=2, op="enumerate")   # the session is still served
        assert devices == {"id": 2, "result": {"devices": [1]}}
    finally:
        client.close()


@pytest.mark.parametrize("data, why", [
    (_framed(b"{oops"), "the server got a message that is not UTF-8 JSON (JSONDecodeError); closing"),
    (_framed(b'"text"'), "the server got a message that is a JSON str, not an object; closing"),
    (struct.pack(">I", MAX_MESSAGE + 1), "the server got a message of 65537 bytes: 1 to 65536; closing"),
])
def test_a_message_that_breaks_the_framing_is_answered_and_the_session_closed(served, data, why) -> None:
    cup, server = served
    client = RawClient(server.path)
    try:
        dev_id = client.request(id=1, op="enumerate")["result"]["devices"][0]
        handle = client.request(id=2, op="open", dev=dev_id)["result"]["handle"]
        assert client.request(id=3, op="claim_interface", handle=handle, intf=0) == {"id": 3, "result": {}}
        assert cup.claimed_by is not None
        answer = client.ask(data)
        assert answer == {"id": None, "error": {"kind": "bad_request", "errno": None, "code": None, "text": why}}
        assert read_message(client.stream) is None        # closed after it
    finally:
        client.close()
    inbox: queue.Queue = queue.Queue()
    driver = _driver(server.url, inbox)                  # the session's claim went with it
    try:
        assert isinstance(inbox.get(timeout=WAIT), DeviceOnline)
    finally:
        driver.stop()


def test_the_device_s_own_errors_cross_as_libusb_s(served) -> None:
    cup, server = served
    client = RawClient(server.path)
    try:
        client.request(id=1, op="enumerate")
        handle = client.request(id=2, op="open", dev=1)["result"]["handle"]
        read = {"op": "intr_read", "handle": handle, "ep": 0x81, "intf": 0, "size": 16, "timeout": 10}
        busy = client.request(id=3, **read)                      # not claimed: EBUSY, as the bus says
        assert busy["error"] | {"text": ""} == {"kind": "usb", "errno": errno.EBUSY, "code": -6, "text": ""}
        client.request(id=4, op="claim_interface", handle=handle, intf=0)
        timeout = client.request(id=5, **read)                   # nothing shaken: a timeout
        assert timeout["error"]["kind"] == "timeout" and timeout["error"]["errno"] == errno.ETIMEDOUT
        stalled = client.request(id=6, op="ctrl_transfer", handle=handle, request_type=0xC0, request=0x7F,
                                 value=0, index=0, size=8, timeout=100)
        assert stalled["error"]["errno"] == errno.EPIPE        # a request the cup does not know: stalled
        cup.unplug()
        gone = client.request(id=7, **read)
        assert gone["error"]["errno"] == errno.ENODEV
    finally:
        client.close()


# --- where the socket is ----------------------------------------------------------------------------

def test_a_path_that_cannot_be_served_is_refused_before_anything_starts(folder: Path, served) -> None:
    _cup, server = served
    with pytest.raises(UsbSocketError) as caught:
        UsbSocketServer(SimUsbBus("x"), server.path).start()
    assert str(caught.value) == (f"USB socket {server.path}: another process serves it (a tablectl sim of this "
                                 "table still running?); stop it, or give this table another path")
    (folder / "plain").write_text("")
    with pytest.raises(UsbSocketError) as caught:
        UsbSocketServer(SimUsbBus("x"), str(folder / "plain")).start()
    assert str(caught.value).endswith("something that is not a socket is there; not replacing it")
    long = "/tmp/" + "d" * 110 + "/cup.sock"
    with pytest.raises(UsbSocketError) as caught:
        UsbSocketServer(SimUsbBus("x"), long).start()
    assert str(caught.value) == f"USB socket {long}: 124 bytes, a Unix socket's path holds at most 107"


def test_a_stale_socket_of_a_killed_simulator_is_replaced(folder: Path) -> None:
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(folder / "cup.sock"))
    stale.close()                                         # the file stays, nobody listens
    bus = SimUsbBus("stale")
    bus.attach(SimDiceCup())
    server = UsbSocketServer(bus, str(folder / "cup.sock")).start()
    try:
        assert len(list(usb.core.find(find_all=True, backend=UnixSocketBackend(server.path)))) == 1
    finally:
        server.stop()


def test_a_unix_backend_names_an_absolute_path() -> None:
    with pytest.raises(UsbBackendError) as caught:
        resolve("unix:run/cup.sock")
    assert str(caught.value) == ("a unix: USB backend names an absolute socket path (unix:/run/cup.sock), "
                                 "not 'unix:run/cup.sock'")
    assert resolve("unix:/run/x.sock") is resolve("unix:/run/x.sock")    # one connection per path


def test_the_wire_is_length_and_json() -> None:
    """A message as docs/protocols.md shows it."""
    assert encode_message({"id": 1, "op": "enumerate"}) == b'\x00\x00\x00\x19{"id":1,"op":"enumerate"}'
    assert json.loads(encode_message({"a": 1})[4:]) == {"a": 1}
