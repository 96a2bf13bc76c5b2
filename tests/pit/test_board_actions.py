"""What a board's users may change, over real HTTP (controller/pit/board/web.py, actions.py): a login
per person with a role; a supervisor's acknowledgement, void and resume, each refused to a viewer;
every state-changing request refused without the session's CSRF token or from another site's page;
an acknowledgement of an alarm that is not open, or one sent again after the alarm was owned,
refused. The pit service is a stand-in that records what it was asked to send (the live path, through
the broker to the archive and to a real table, is tests/pit/test_board_live.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pit_support import USERS, BoardClient, Table, users_file

from controller.pit import acks
from controller.pit.board.picture import Picture
from controller.pit.board.throttle import parse_trusted
from controller.pit.board.web import BoardServer, serve


class Link:
    """The pit service as the board sees it: what it was asked to send, and the table's reply."""

    def __init__(self) -> None:
        self.acks: list[acks.Ack] = []
        self.commands: list[tuple[str, str, dict]] = []
        self.reply: dict[str, Any] = {"ok": True}

    def acknowledge(self, ack: acks.Ack, timeout: float = 5.0) -> None:
        self.acks.append(ack)

    def command(self, table: str, name: str, args: dict, timeout: float = 8.0) -> dict:
        self.commands.append((table, name, args))
        return {"id": args["id"], "command": name, **self.reply}


@pytest.fixture
def floor() -> tuple[Picture, dict]:
    """bac-01 in fault in round 7, its alarm open."""
    picture, t = Picture(), Table()
    picture("bac-01", "status", t.status())
    t.round = 7
    picture("bac-01", "event", t.event("round_start", {"round": 7, "player_dealer": None, "last_of_shoe": False}))
    alarm = t.alarm("unexpected_card", "fault", "9H drawn, but no card is due <b>now</b>")
    picture("bac-01", "event", alarm)
    picture("bac-01", "event", t.event("transition", {"from": "dealing", "to": "fault", "trigger": "fault_raised"}))
    return picture, alarm


@pytest.fixture
def board(floor, tmp_path: Path) -> Iterator[tuple[BoardServer, Link]]:
    link = Link()
    server = serve(floor[0], "127.0.0.1", 0, users_file=users_file(tmp_path), link=link,
                   trusted_proxies=tuple(parse_trusted("127.0.0.2")))
    yield server, link
    server.stop()


def logged_in(server: BoardServer, user: str) -> BoardClient:
    client = BoardClient(server.url)
    assert client.login(user, USERS[user][1]) == 303
    return client


def test_each_person_logs_in_as_themselves_with_their_role(board) -> None:
    server, _ = board
    ann = BoardClient(server.url)
    assert ann.login("ann", USERS["vic"][1]) == 401 and ann.login("nobody", USERS["ann"][1]) == 401
    assert ann.login("ann", USERS["ann"][1]) == 303
    me = ann.request("/api/me")[2]
    assert b'"user": "ann", "role": "supervisor"' in me and b'"void": true' in me
    _, _, body = ann.request("/login")
    assert b'name="user"' in body      # the form asks who


def test_a_viewer_may_not_void_resume_or_acknowledge(board, floor) -> None:
    server, link = board
    vic = logged_in(server, "vic")
    for path, form in (("/api/void", {"table": "bac-01", "round": 7, "reason": "x"}),
                       ("/api/resume", {"table": "bac-01", "round": 7}),
                       ("/api/ack", {"table": "bac-01", "seq": floor[1]["seq"]})):
        status, body = vic.post(path, form)
        assert status == 403 and body["error"].startswith("refused: vic (viewer) may not"), (path, body)
    assert link.acks == [] and link.commands == []


@pytest.mark.parametrize("path", ["/api/ack", "/api/void", "/api/resume", "/logout"])
def test_every_state_changing_request_needs_the_sessions_token_and_the_boards_origin(board, floor, path) -> None:
    server, link = board
    ann = logged_in(server, "ann")
    form = {"table": "bac-01", "round": 7, "seq": floor[1]["seq"], "reason": "misdeal"}
    other = logged_in(server, "ada")
    for how, kw in (("no token", {"token": False}),
                    ("another session's token", {"token": False, "headers": {"X-CSRF-Token": other.csrf}}),
                    ("the token in the form, from another site's page",
                     {"token": False, "headers": {"Origin": "http://evil.example"}}),
                    ("another site's page", {"headers": {"Origin": "http://evil.example"}}),
                    ("an opaque origin", {"headers": {"Origin": "null"}}),
                    ("a cross-site fetch", {"headers": {"Sec-Fetch-Site": "cross-site"}})):
        status, _ = ann.post(path, {**form, **({"csrf": ann.csrf} if "form" in how else {})}, **kw)
        assert status == 403, how
    assert link.acks == [] and link.commands == []
    assert ann.request("/api/me")[0] == 200                  # still logged in: the logout was refused too
    status, _ = ann.post(path, form, headers={"Origin": server.url})
    assert status in (200, 303), path                        # from the board's own page, with its token


def test_a_login_posted_from_another_sites_page_is_refused(board) -> None:
    server, _ = board
    ann = BoardClient(server.url)
    status, _, _ = ann.request("/login", {"user": "ann", "password": USERS["ann"][1]},
                               headers={"Origin": "http://evil.example"})
    assert status == 403 and "pitboard" not in ann.cookies


def test_an_acknowledgement_names_an_open_alarm_and_the_acknowledgement_it_replaces(board, floor) -> None:
    server, link = board
    picture, alarm = floor
    ann = logged_in(server, "ann")
    assert ann.post("/api/ack", {"table": "bac-01", "seq": alarm["seq"] + 100})[0] == 409       # no such alarm
    assert ann.post("/api/ack", {"table": "bac-01", "seq": alarm["seq"], "assignee": "zed"})[0] == 400
    status, body = ann.post("/api/ack", {"table": "bac-01", "seq": alarm["seq"], "note": "<i>tech</i> called",
                                         "assignee": "vic", "code": "game_broken", "by": "ada"})
    assert status == 200, body
    [sent] = link.acks
    assert (sent.table, sent.alarm_seq, sent.code, sent.by, sent.note, sent.assignee) == \
        ("bac-01", alarm["seq"], "unexpected_card", "ann", "<i>tech</i> called", "vic")   # code and who: the board's
    picture("bac-01", "ack", sent.to_json())                # it comes back through the broker
    status, body = ann.post("/api/ack", {"table": "bac-01", "seq": alarm["seq"], "note": "again"})    # replayed
    assert status == 409 and "acknowledged meanwhile by ann" in body["error"]
    ada = logged_in(server, "ada")
    status, _ = ada.post("/api/ack", {"table": "bac-01", "seq": alarm["seq"], "replaces": sent.id, "assignee": "ada"})
    assert status == 200 and [a.by for a in link.acks] == ["ann", "ada"]     # taken over knowingly


def test_a_void_names_the_round_its_user_saw_and_carries_their_name(board) -> None:
    server, link = board
    ann = logged_in(server, "ann")
    assert ann.post("/api/void", {"table": "bac-01", "round": 6, "reason": "misdeal"})[0] == 409    # moved on
    assert ann.post("/api/void", {"table": "bac-01", "round": 7, "reason": " "})[0] == 400
    assert ann.post("/api/void", {"table": "no-such", "round": 7, "reason": "x"})[0] == 404
    status, body = ann.post("/api/void", {"table": "bac-01", "round": 7, "reason": "misdeal  at\nseat 3"})
    assert status == 200 and body["reply"]["ok"] is True
    [(table, name, args)] = link.commands
    assert (table, name, args["user"], args["round"], args["reason"]) == ("bac-01", "void", "ann", 7, "misdeal at seat 3")
    link.reply = {"ok": False, "error": "refused: round 7 already has its result, which stands"}
    status, body = ann.post("/api/resume", {"table": "bac-01", "round": 7})
    assert status == 409 and body["error"] == ("table bac-01 refused: refused: round 7 already has its result, "
                                               "which stands")


def test_cookies_are_secure_only_when_a_trusted_proxy_says_https(board) -> None:
    server, _ = board
    direct = BoardClient(server.url)
    _, head, _ = direct.request("/login", {"user": "ann", "password": USERS["ann"][1]},
                                headers={"X-Forwarded-Proto": "https"})      # not a proxy it trusts: not believed
    assert head["Location"] == "/" and "Secure" not in head["Set-Cookie"]
    import socket
    with socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=("127.0.0.2", 0)) as raw:
        body = b"user=ann&password=" + USERS["ann"][1].replace(" ", "+").replace("'", "%27").encode()
        raw.sendall(b"POST /login HTTP/1.0\r\nHost: pit.example\r\nX-Forwarded-Proto: https\r\n"
                    b"X-Forwarded-For: 198.51.100.7\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        answer = b""
        while chunk := raw.recv(4096):
            answer += chunk
    head = answer.split(b"\r\n\r\n")[0].decode()
    cookies = [line for line in head.split("\r\n") if line.startswith("Set-Cookie:")]
    assert head.startswith("HTTP/1.0 303") and len(cookies) == 2 and all("; Secure" in c for c in cookies), head
