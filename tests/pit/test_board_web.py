"""The pit board over real HTTP (controller/pit/board/web.py): pages, JSON, the event stream, where it
may listen, and the password (controller/pit/board/auth.py); every request through urllib."""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from pit_support import Stream, Table, bac_result

from controller.pit.board import auth
from controller.pit.board.auth import Password
from controller.pit.board.picture import Picture
from controller.pit.board.web import BoardError, BoardServer, serve

PASSWORD = "Corr3ct-h0rse battery staple"


class _Keep(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kw):
        return None   # a 303 is the answer the test looks at, not a page to follow


OPENER = urllib.request.build_opener(_Keep)


def request(url: str, *, cookie: str | None = None, form: dict | None = None, method: str | None = None,
            headers: dict | None = None) -> tuple[int, dict, bytes]:
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if cookie:
        req.add_header("Cookie", f"pitboard={cookie}")
    try:
        with OPENER.open(req, timeout=10) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


@pytest.fixture
def picture() -> Picture:
    pic = Picture()
    t = Table()
    pic("bac-01", "status", t.status())
    t.round = 1
    pic("bac-01", "event", t.event("result", bac_result("banker")))
    return pic


@pytest.fixture
def board(picture: Picture) -> Iterator[BoardServer]:
    server = serve(picture, "127.0.0.1", 0, keepalive=0.3)
    yield server
    server.stop()


@pytest.fixture
def password_file(tmp_path: Path) -> Path:
    path = tmp_path / "board.password"
    path.write_text(PASSWORD + "\n")
    path.chmod(0o600)
    return path


@pytest.fixture
def locked(picture: Picture, password_file: Path) -> Iterator[BoardServer]:
    server = serve(picture, "127.0.0.1", 0, password_file, keepalive=0.3)
    yield server
    server.stop()


def login(server: BoardServer) -> str:
    status, headers, _ = request(server.url + "/login", form={"password": PASSWORD, "next": "/table/bac-01"})
    assert status == 303 and headers["Location"] == "/table/bac-01"
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    return cookie.split(";")[0].split("=", 1)[1]


def test_pages_and_json_are_served_with_a_policy_that_runs_no_inline_script(board: BoardServer) -> None:
    for path in ("/", "/table/bac-01", "/table/never-seen"):
        status, headers, body = request(board.url + path)
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert b'<script src="/static/board.js" defer></script>' in body and b'role="alert"' in body
        assert "script-src 'self'" in headers["Content-Security-Policy"] and "unsafe-inline" not in \
            headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
    assert request(board.url + "/static/board.js")[1]["Content-Type"].startswith("text/javascript")
    assert request(board.url + "/static/board.css")[1]["Content-Type"].startswith("text/css")
    status, _, body = request(board.url + "/api/tables")
    tiles = json.loads(body)
    assert status == 200 and [t["table"] for t in tiles["tables"]] == ["bac-01"]
    assert "BANKER" in tiles["tables"][0]["results"][0]["summary"]
    status, _, body = request(board.url + "/api/table/bac-01")
    assert status == 200 and json.loads(body)["table"]["scoreboard"]["counts"]["banker"] == 1
    for path in ("/api/table/nope", "/table/a%2Fb", "/table/" + "x" * 65, "/static/../web.py", "/etc/passwd"):
        assert request(board.url + path)[0] == 404, path


def test_the_board_stream_sends_a_snapshot_then_patches_and_keep_alives(board: BoardServer, picture: Picture) -> None:
    stream = Stream(board.url + "/events")
    assert stream.headers["Content-Type"].startswith("text/event-stream")
    snapshot = stream.json("snapshot")
    assert [t["table"] for t in snapshot["tables"]] == ["bac-01"]
    t = Table(id="tcp-01", game="three_card_poker")
    picture("tcp-01", "status", t.status())
    patch = stream.json("patch")
    assert patch["table"] == "tcp-01" and patch["tile"]["online"] is True and "history" not in patch
    assert patch["version"] > snapshot["version"]
    assert stream.next() == ("comment", "keep-alive")      # 0.3 s of quiet
    stream.close()


def test_a_patch_after_a_quiet_spell_is_read_past_its_keep_alives(board: BoardServer, picture: Picture) -> None:
    """A test thread that stalls longer than the keep-alive (a loaded machine) still reads its patch:
    keep-alives are the stream living, not the event waited for."""
    stream = Stream(board.url + "/events")
    stream.json("snapshot")
    time.sleep(board.keepalive * 2.5)     # two keep-alives come first
    picture("tcp-01", "status", Table(id="tcp-01", game="three_card_poker").status())
    assert stream.json("patch")["table"] == "tcp-01"
    stream.close()


def test_a_table_page_stream_has_its_history_and_roads_and_only_its_own_patches(board: BoardServer,
                                                                               picture: Picture) -> None:
    stream = Stream(board.url + "/events?table=bac-01")
    snapshot = stream.json("snapshot")
    assert snapshot["table"]["history"][0]["round"] == 1 and snapshot["table"]["scoreboard"]
    picture("tcp-01", "status", Table(id="tcp-01", game="three_card_poker").status())   # not this page's
    t = Table(seq=1, round=2)
    picture("bac-01", "event", t.event("result", bac_result("player")))
    patch = stream.json("patch")
    assert patch["table"] == "bac-01" and patch["history"][0]["round"] == 2
    assert patch["scoreboard"]["counts"] == {"banker": 1, "player": 1, "tie": 0}
    stream.close()
    assert request(board.url + "/events?table=../x")[0] == 400


def test_stopping_the_server_ends_its_streams(picture: Picture) -> None:
    server = serve(picture, "127.0.0.1", 0, keepalive=30)
    stream = Stream(server.url + "/events")
    stream.json("snapshot")
    server.stop()
    with pytest.raises(EOFError):
        stream.next()
    assert picture.feed.clients() == 0


def test_it_will_not_listen_beyond_this_machine_without_a_password(picture: Picture) -> None:
    for host in ("0.0.0.0", "192.0.2.10", "pit-board.example"):
        with pytest.raises(BoardError, match=r"beyond this machine, without a login: give --users-file FILE or --password-file"):
            serve(picture, host, 0)


def test_a_port_in_use_is_one_clear_line(picture: Picture) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(BoardError) as info:
            serve(picture, "127.0.0.1", port)
    assert str(info.value) == f"cannot serve the board on 127.0.0.1:{port}: Address already in use"


@pytest.mark.parametrize(("content", "why"), [
    (None, "No such file or directory"),
    ("", "the password is empty"),
    ("\nsecond line", "the password is empty"),
    ("scrypt$16384$8$1$not base64!$AAAA", "salt and hash base64"),
    ("scrypt$3$8$1$AAAAAAAAAAA=$AAAAAAAAAAAAAAAAAAAAAA==", "out of range"),
    (b"\xff\xfe", "not UTF-8 text"),
])
def test_a_password_file_that_cannot_be_used_is_named_with_why(picture: Picture, tmp_path: Path, content,
                                                               why: str) -> None:
    path = tmp_path / "pw"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    with pytest.raises(BoardError, match=f"--password-file {path}: .*{why}"):
        serve(picture, "0.0.0.0", 0, path)


def test_with_a_password_nothing_is_shown_before_the_login(locked: BoardServer) -> None:
    status, headers, _ = request(locked.url + "/table/bac-01")
    assert status == 303 and headers["Location"] == "/login?next=/table/bac-01"
    assert request(locked.url + "/")[1]["Location"] == "/login?next=/"
    for path in ("/api/tables", "/api/table/bac-01", "/events"):
        status, _, body = request(locked.url + path)
        assert status == 401 and b"BANKER" not in body, path
    status, _, body = request(locked.url + "/login?next=/table/bac-01")
    assert status == 200 and b'type="password"' in body and b'value="/table/bac-01"' in body
    status, _, body = request(locked.url + "/login", form={"password": "wrong", "next": "/"})
    assert status == 401 and b"Wrong password." in body
    assert request(locked.url + "/static/board.css")[0] == 200     # the login page's looks


def test_the_login_opens_pages_json_and_stream_until_logout(locked: BoardServer) -> None:
    cookie = login(locked)
    assert request(locked.url + "/table/bac-01", cookie=cookie)[0] == 200
    assert json.loads(request(locked.url + "/api/tables", cookie=cookie)[2])["tables"][0]["table"] == "bac-01"
    stream = Stream(locked.url + "/events", cookie=cookie)
    assert stream.json("snapshot")["tables"]
    stream.close()
    assert request(locked.url + "/api/tables", cookie="forged-" + cookie)[0] == 401
    assert request(locked.url + "/logout", cookie=cookie, form={})[0] == 403      # without the session's token
    assert request(locked.url + "/api/tables", cookie=cookie)[0] == 200
    me = json.loads(request(locked.url + "/api/me", cookie=cookie)[2])
    assert me["user"] is None and me["role"] == "viewer" and me["may"] == {"acknowledge": False, "void": False,
                                                                           "resume": False}
    status, headers, _ = request(locked.url + "/logout", cookie=cookie, form={"csrf": me["csrf"]})
    assert status == 303 and "Max-Age=0" in headers["Set-Cookie"]
    assert request(locked.url + "/api/tables", cookie=cookie)[0] == 401


def test_a_hash_line_in_the_file_works_as_the_password_and_holds_none(picture: Picture, tmp_path: Path) -> None:
    path = tmp_path / "pw"
    path.write_text(Password.of(PASSWORD).line() + "\n")
    assert PASSWORD not in path.read_text()
    server = serve(picture, "127.0.0.1", 0, path)
    try:
        assert login(server)
        assert request(server.url + "/login", form={"password": "nope"})[0] == 401
    finally:
        server.stop()


def test_the_login_goes_only_to_a_page_of_this_board_and_escapes_what_it_echoes(locked: BoardServer) -> None:
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        status, headers, _ = request(locked.url + "/login", form={"password": PASSWORD, "next": target})
        assert status == 303 and headers["Location"] == "/", target
    status, _, body = request(locked.url + "/login?next=" + urllib.parse.quote('/"><script>alert(1)</script>'))
    assert status == 200 and b"<script>alert" not in body and b'name="next" value="/"' in body   # not echoed at all


@pytest.mark.parametrize("target", [
    "/\r\nSet-Cookie: pitboard=attacker",     # a header of the attacker's in the 303
    "/\nSet-Cookie: pitboard=attacker",
    "/\t/evil.example/",                        # a browser drops the tab: //evil.example/
    "/table/bac-01\r\nX-Evil: 1",
    "/table/bac-01\n",
    "/table/../../evil", "/api/tables", "/table/", "/%2F%2Fevil.example", "/\u00e9",
])
def test_the_login_goes_nowhere_but_the_boards_own_pages(locked: BoardServer, target: str) -> None:
    """``next`` is the attacker's to write: only ``/`` and ``/table/<id>`` are followed, whole."""
    status, headers, _ = request(locked.url + "/login", form={"password": PASSWORD, "next": target})
    assert status == 303 and headers["Location"] == "/", target
    assert headers["Set-Cookie"].startswith("pitboard=") and "attacker" not in headers["Set-Cookie"]
    assert "X-Evil" not in headers
    status, _, body = request(locked.url + "/login?next=" + urllib.parse.quote(target))
    assert status == 200 and b'name="next" value="/"' in body, body


def test_the_login_raw_answer_carries_no_header_of_the_form(locked: BoardServer) -> None:
    """The same over a raw socket: the 303's bytes, not urllib's reading of them."""
    body = urllib.parse.urlencode({"password": PASSWORD, "next": "/\r\nSet-Cookie: pitboard=attacker"}).encode()
    with socket.create_connection(("127.0.0.1", locked.port), timeout=10) as raw:
        raw.sendall(b"POST /login HTTP/1.0\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        answer = b""
        while chunk := raw.recv(4096):
            answer += chunk
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    assert head[0].startswith("HTTP/1.0 303") and "Location: /" in head
    assert not any("attacker" in line for line in head), head


def test_parallel_guesses_are_bounded_and_the_password_still_logs_in(locked: BoardServer, caplog,
                                                                     monkeypatch) -> None:
    """Each guess is scrypt's 16 MiB and ~50 ms: a crowd of them is answered 429, not hashed at once."""
    caplog.set_level(logging.DEBUG)
    hashing, most, counting = [0], [0], threading.Lock()
    real = auth._scrypt

    def counted(*args, **kw) -> bytes:
        with counting:
            hashing[0] += 1
            most[0] = max(most[0], hashing[0])
        try:
            return real(*args, **kw)
        finally:
            with counting:
                hashing[0] -= 1

    monkeypatch.setattr(auth, "_scrypt", counted)
    start = threading.Barrier(40)

    def guess(i: int) -> tuple[int, dict]:
        start.wait()
        status, headers, _ = request(locked.url + "/login", form={"password": f"{PASSWORD}{i}", "next": "/"})
        return status, headers

    with ThreadPoolExecutor(40) as pool:
        answers = list(pool.map(guess, range(40)))
    codes = [status for status, _ in answers]
    assert set(codes) <= {401, 429} and codes.count(429) > 0 and codes.count(401) > 0, codes
    assert all(int(h["Retry-After"]) >= 1 for status, h in answers if status == 429)
    assert most[0] <= 2, most[0]
    deadline = time.monotonic() + 20          # the address's backoff, then the password works
    while True:
        status, headers, _ = request(locked.url + "/login", form={"password": PASSWORD, "next": "/table/bac-01"})
        if status != 429 or time.monotonic() > deadline:
            break
        time.sleep(min(float(headers["Retry-After"]), 5.0))
    assert status == 303 and headers["Location"] == "/table/bac-01"
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert PASSWORD not in logged and "h0rse" not in logged


def test_bad_requests_get_their_answer_and_the_board_goes_on(locked: BoardServer) -> None:
    url = locked.url + "/login"
    with socket.create_connection(("127.0.0.1", locked.port), timeout=10) as raw:   # no Content-Length
        raw.sendall(b"POST /login HTTP/1.0\r\n\r\n")
        assert raw.recv(100).startswith(b"HTTP/1.0 411")
    assert request(url, form={"password": "x" * 9000})[0] == 413
    assert request(url, method="HEAD")[0] == 405
    assert request(locked.url + "/nowhere", form={})[0] == 404
    with socket.create_connection(("127.0.0.1", locked.port), timeout=10) as raw:   # not HTTP at all
        raw.sendall(b"\x16\x03\x01 hello " + PASSWORD.encode() + b"\r\n\r\n")
        assert b'{"error": "Bad Request", "status": 400}' in raw.recv(1000)
    assert login(locked)


def test_the_password_is_never_logged_or_printed(picture: Picture, password_file: Path, caplog, capfd) -> None:
    caplog.set_level(logging.DEBUG)
    server = serve(picture, "127.0.0.1", 0, password_file)
    try:
        request(server.url + "/login", form={"password": PASSWORD + "x"})            # wrong
        request(server.url + "/login?password=" + urllib.parse.quote(PASSWORD))        # in a query string
        request(server.url + "/api/tables?pw=" + urllib.parse.quote(PASSWORD))
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:  # in a bad request line
            raw.sendall(b"GET /" + PASSWORD.replace(" ", "%20").encode() + b" HTTP/9.9 junk\r\n\r\n")
            raw.recv(100)
        login(server)
    finally:
        server.stop()
    out, err = capfd.readouterr()
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "login refused from 127.0.0.1" in logged and "login from 127.0.0.1" in logged
    for secret in (PASSWORD, urllib.parse.quote(PASSWORD), PASSWORD.replace(" ", "%20"), "h0rse"):
        assert secret not in logged and secret not in out and secret not in err


@pytest.mark.parametrize(("typed", "code", "said"), [
    (f"{PASSWORD}\n{PASSWORD}\n", 0, ""),
    (f"{PASSWORD}\nsomething else\n", 1, "the two passwords differ; nothing written"),
    ("", 1, "no password given; nothing written"),
    ("\n\n", 1, "refused: the password is empty"),
])
def test_the_hash_line_helper_asks_twice_and_says_why_it_writes_nothing(typed: str, code: int, said: str) -> None:
    done = subprocess.run([sys.executable, "-m", "controller.pit.board.auth"], input=typed, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == code and said in done.stderr and "Traceback" not in done.stderr
    assert PASSWORD not in done.stdout + done.stderr
    if code == 0:
        assert Password.parse(done.stdout.strip()).check(PASSWORD)
