"""The board's streams cannot hold up the archive or each other (issue 26; controller/pit/board/loop.py
and feed.py), over real sockets: a browser that stops reading is dropped while another browser and
the archive (a real pit service, Mosquitto and PostgreSQL) keep up; hundreds of connections are
served by the board's one thread; a connection past the cap is told to come back; a browser that
reconnects goes on where it was, or is told why it was redrawn. Asserted on what was archived and
what each browser received, never on how long anything took."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator

import pytest
from archive_support import ARCHIVE_WAIT
from pit_support import Stream, Table, bac_result

from controller.pit.board.feed import Feed
from controller.pit.board.picture import Picture
from controller.pit.board.web import BoardServer, serve

EVENTS = 2500
"""Events the stand-in table publishes: more than a browser's place in the feed (1,000 patches)
plus what the sockets between the board and a browser that does not read can hold."""


def _prompt(t: Table, text: str) -> dict:
    return t.event("prompt", {"expect": "bets", "hand": None, "buttons": [], "text": text})


def _open(server: BoardServer, path: str = "/events", *, rcvbuf: int | None = None) -> socket.socket:
    """A browser on ``path`` that has read its stream's head and snapshot, and nothing more."""
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(30)
    sock.connect(("127.0.0.1", server.port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: board\r\nAccept: text/event-stream\r\n\r\n".encode())
    got = b""
    while b"event: snapshot\n" not in got or not got.endswith(b"\n\n"):
        chunk = sock.recv(65536)
        assert chunk, f"the stream ended before its snapshot: {got[:300]!r}"
        got += chunk
    return sock


def _until(sock: socket.socket, what: bytes) -> bytes:
    got = b""
    while what not in got:
        chunk = sock.recv(65536)
        assert chunk, f"the stream ended before {what!r}: {got[-300:]!r}"
        got += chunk
    return got


@pytest.fixture
def picture() -> Picture:
    pic = Picture()
    pic("bac-01", "status", Table().status())
    return pic


@pytest.fixture
def board(picture: Picture) -> Iterator[BoardServer]:
    server = serve(picture, "127.0.0.1", 0, keepalive=30)
    yield server
    server.stop()


def test_a_browser_that_stops_reading_is_dropped_while_another_and_the_archive_keep_up(
        broker, pit_factory, fake_table, archive_view) -> None:
    picture = Picture()
    service = pit_factory(broker, start=False)
    service.add_observer(picture)      # as `tablectl pit --db --http`: one process archives and serves
    service.start()
    server = serve(picture, "127.0.0.1", 0, keepalive=30)
    try:
        fake = fake_table("fake-01")
        fake.status()
        asleep = _open(server, rcvbuf=4096)       # a laptop whose lid closed after its snapshot
        awake = Stream(server.url + "/events", timeout=30)
        awake.json("snapshot")
        seen: list[int] = []
        ended: list[BaseException] = []

        def read() -> None:
            try:
                while not seen or seen[-1] != EVENTS:
                    patch = awake.json("patch")
                    if patch.get("table") == "fake-01" and patch["tile"]["last_seq"] is not None:   # not a pit patch
                        seen.append(patch["tile"]["last_seq"])
            except BaseException as exc:   # reported by the test's thread
                ended.append(exc)

        reader = threading.Thread(target=read, name="awake-browser")
        reader.start()
        for seq in range(1, EVENTS + 1):
            fake.event(seq)
        reader.join(ARCHIVE_WAIT)
        assert not reader.is_alive() and not ended, ended
        archive_view.wait(lambda: archive_view.complete("fake-01", EVENTS), f"the {EVENTS} events archived")
        # The browser that read got every patch, in order; the one that did not was dropped (its
        # place fell off the feed), and nothing it held back was lost to the archive.
        assert seen == list(range(1, EVENTS + 1))
        assert server.loop.dropped == 1 and picture.feed.dropped == 1
        assert picture.feed.clients() == 1 and len(server.loop.streams) == 1
        counts = service.counters()
        assert counts["events_archived"] == EVENTS and counts["rejected"] == 0 and counts["observer_errors"] == 0
        asleep.settimeout(10)
        left = b""
        with pytest.raises(ConnectionResetError):   # reset: nothing it never read was kept for it
            while chunk := asleep.recv(1 << 20):
                left += chunk
        whole = left.split(b"\n\n")[:-1]        # the events it had whole when it was reset
        patches = [json.loads(e.split(b"data: ", 1)[1]) for e in whole if b"event: patch" in e]
        last = [p["tile"]["last_seq"] for p in patches if p.get("tile")]
        assert not last or last[-1] < EVENTS
        asleep.close()
        awake.close()
    finally:
        server.stop()


def test_hundreds_of_connections_are_served_by_the_boards_one_thread(picture: Picture, board: BoardServer) -> None:
    threads = threading.active_count()
    streams = [_open(board) for _ in range(300)]
    idle = [socket.create_connection(("127.0.0.1", board.port), timeout=30) for _ in range(100)]
    try:
        # a request answered after the idle ones connected: the board has accepted them all by then
        check = socket.create_connection(("127.0.0.1", board.port), timeout=30)
        check.sendall(b"GET /api/tables HTTP/1.0\r\n\r\n")
        assert _until(check, b"\r\n\r\n").startswith(b"HTTP/1.0 200")
        check.close()
        assert 400 <= board.loop.connections <= 401 and len(board.loop.streams) == 300
        assert threading.active_count() == threads, [t.name for t in threading.enumerate()]
        picture("bac-01", "event", _prompt(Table(), "bets, please"))
        for sock in streams:          # every stream gets the patch, from the same thread
            _until(sock, b'"prompt": "bets, please"')
        assert threading.active_count() == threads
    finally:
        for sock in streams + idle:
            sock.close()


def test_a_connection_past_the_cap_is_told_to_come_back_and_the_others_go_on(picture: Picture) -> None:
    server = serve(picture, "127.0.0.1", 0, keepalive=30, max_connections=10)
    streams = [_open(server) for _ in range(10)]
    try:
        extra = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        extra.sendall(b"GET /api/tables HTTP/1.0\r\n\r\n")
        answer = b""
        while chunk := extra.recv(65536):
            answer += chunk
        extra.close()
        head, _, body = answer.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        assert lines[0] == "HTTP/1.0 503 Service Unavailable" and "Retry-After: 5" in lines
        assert "X-Content-Type-Options: nosniff" in lines and json.loads(body)["status"] == 503
        assert server.loop.refused == 1 and server.loop.connections == 10
        picture("bac-01", "event", _prompt(Table(), "after the refusal"))
        for sock in streams:
            _until(sock, b"after the refusal")
    finally:
        for sock in streams:
            sock.close()
        server.stop()


def test_a_browser_back_from_a_short_break_goes_on_where_it_was(picture: Picture, board: BoardServer) -> None:
    t = Table()
    first = Stream(board.url + "/events")
    first.json("snapshot")
    picture("bac-01", "event", _prompt(t, "one"))
    assert first.json("patch")["tile"]["prompt"] == "one"
    picture("bac-01", "event", _prompt(t, "two"))     # sent while the browser was away
    gone = first.last_id
    first.close()
    again = Stream(board.url + "/events", last_id=gone)
    assert again.json("patch")["tile"]["prompt"] == "two"   # no snapshot: it goes on from its last event
    picture("bac-01", "event", _prompt(t, "three"))
    assert again.json("patch")["tile"]["prompt"] == "three"
    again.close()


def test_a_browser_that_fell_behind_is_redrawn_and_told_why() -> None:
    picture = Picture(feed=Feed(maxsize=5))
    t = Table()
    picture("bac-01", "status", t.status())
    server = serve(picture, "127.0.0.1", 0, keepalive=30)
    try:
        stream = Stream(server.url + "/events")
        stream.json("snapshot")
        last = stream.last_id
        stream.close()
        for n in range(10):     # more than the feed holds for it
            picture("bac-01", "event", _prompt(t, f"p{n}"))
        behind = Stream(server.url + "/events", last_id=last)
        snapshot = behind.json("snapshot")
        assert snapshot["resync"] == "this screen was 10 changes behind the floor"
        assert snapshot["tables"][0]["prompt"] == "p9"
        behind.close()
        elsewhere = Stream(server.url + "/events", last_id="0badcafe-3")   # another process's id
        assert elsewhere.json("snapshot")["resync"] == "the pit board restarted"
        elsewhere.close()
        fresh = Stream(server.url + "/events", last_id="not an id")
        assert "resync" not in fresh.json("snapshot")
        fresh.close()
        page = Stream(server.url + "/events?table=bac-01", last_id=last)
        detail = page.json("snapshot")
        assert detail["resync"] == "this screen was 10 changes behind the floor" and detail["table"]["prompt"] == "p9"
        page.close()
    finally:
        server.stop()


def test_a_table_page_stream_goes_on_from_its_own_patches(picture: Picture, board: BoardServer) -> None:
    """A page's feed holds its table's patches only; another table's changes do not push it out."""
    t = Table(seq=0, round=1)
    page = Stream(board.url + "/events?table=bac-01")
    page.json("snapshot")
    picture("bac-01", "event", t.event("result", bac_result("banker")))
    assert page.json("patch")["history"][0]["round"] == 1
    last = page.last_id
    page.close()
    other = Table(id="tcp-01", game="three_card_poker")
    picture("tcp-01", "status", other.status())
    t.round = 2
    picture("bac-01", "event", t.event("result", bac_result("player")))
    again = Stream(board.url + "/events?table=bac-01", last_id=last)
    patch = again.json("patch")
    assert patch["table"] == "bac-01" and patch["history"][0]["round"] == 2
    again.close()
