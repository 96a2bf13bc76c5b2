"""Disputes without SQL, on the board (issue 22.4): a round of a week ago found by its number or by a
date and time typed in the browser's own zone, every event of it in order with what the archive
lacks shown as a gap, its JSON export and its printable page; a table's rounds paged back through
the archive with the rounds it never saw shown. Hostile text (a void's reason, an alarm's message)
is shown as text. The archive's queries are answered on the board's pool: a slow one holds up no
stream. A real PostgreSQL filled by hand (tests/archive_rows.py), a real browser."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import psycopg
import pytest
from archive_rows import ArchiveRows
from browser_support import log_in, screenshot, until
from pit_support import USERS, BoardClient, Stream, Table, users_file

from controller.pit.board.picture import Picture
from controller.pit.board.web import BoardServer, serve
from controller.pit.rounds import find_round
from games.baccarat.rules import outcome, point
from games.cards import cards

HOSTILE = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">'
BEGAN = (datetime.now(UTC) - timedelta(days=7)).replace(hour=14, minute=0, second=0, microsecond=0)
"""A week ago, 14:00 UTC: when the archive's first round began."""


def at(seconds: float) -> str:
    return (BEGAN + timedelta(seconds=seconds)).isoformat()


def card(hand: str, position: int, code: str) -> dict:
    return {"hand": hand, "position": position, "face": "up", "card": code, "value": point(cards(code)[0])}


def start(n: int) -> dict:
    return {"round": n, "player_dealer": None, "last_of_shoe": False}


@pytest.fixture
def archive(pg_url: str) -> Iterator[str]:
    """bac-01 a week ago: round 1 (a result), round 2 (two seqs lost for good, voided by pit:ann with a
    hostile reason), rounds 3-6 never in the archive, round 7 (a result)."""
    rows = ArchiveRows(pg_url)
    rows.table("bac-01", "baccarat")
    rows.event("bac-01", at(-2), "table", {"status": "open"})
    rows.event("bac-01", at(0), "round_start", start(1), 1)
    for i, (hand, code) in enumerate((("player", "2H"), ("banker", "KD"), ("player", "5C"), ("banker", "6S"))):
        rows.event("bac-01", at(10 + i), "card", card(hand, 1 + i // 2, code), 1)
    rows.event("bac-01", at(20), "result", outcome(cards("2H 5C"), cards("KD 6S")).to_dict() | {"player_dealer": None}, 1)
    rows.event("bac-01", at(60), "round_start", start(2), 2)                                    # seq 8
    rows.event("bac-01", at(65), "card", card("player", 1, "9D"), 2)                            # seq 9
    rows.event("bac-01", at(80), "alarm", {"code": "shoe_misread", "severity": "fault", "message": HOSTILE,
                                           "card": None, "expected": None, "missing": [], "extra": [],
                                           "action": "void the round"}, 2, seq=12)
    rows.event("bac-01", at(90), "void", {"round": 2, "reason": HOSTILE, "by": "pit:ann"}, 2)   # seq 13
    rows.gap("bac-01", 10, 11, "unfillable", reason="the journal no longer holds seqs before 40 (pruned)")
    rows.event("bac-01", at(300), "round_start", start(7), 7)
    rows.event("bac-01", at(330), "result", outcome(cards("2H 4C"), cards("3D 4S")).to_dict() | {"player_dealer": None}, 7)
    rows.close()
    yield pg_url


@pytest.fixture
def board(archive: str, tmp_path: Path) -> Iterator[BoardServer]:
    server = serve(Picture(), "127.0.0.1", 0, users_file=users_file(tmp_path), read_db=archive)
    yield server
    server.stop()


def viewer(server: BoardServer) -> BoardClient:
    client = BoardClient(server.url)
    assert client.login("vic", USERS["vic"][1]) == 303
    return client


def test_a_round_of_last_week_is_found_by_the_time_typed_in_the_browsers_zone(board, browsers) -> None:
    page = browsers()
    page.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "America/Los_Angeles"})
    log_in(page, board.url, "vic", USERS["vic"][1], then="/rounds/bac-01")
    rows = until(page, "const r = [...document.querySelectorAll('#archive-rounds tbody tr')]; "
                       "return r.length && r.map(t => t.dataset.round || 'missing ' + t.dataset.missing)")
    assert rows == ["7", "missing 3-6", "2", "1"]
    screenshot(page, "board-rounds.png")
    assert page.execute_script("return document.querySelector('tr[data-round=\"2\"] .void').textContent") == \
        f"VOID (pit:ann): {HOSTILE}"
    local = (BEGAN + timedelta(seconds=15)).astimezone(ZoneInfo("America/Los_Angeles"))   # during round 1's deal
    page.execute_script("document.getElementById('find-at').value = arguments[0]; "
                        "document.querySelector('.finder button').click()", local.strftime("%Y-%m-%dT%H:%M:%S"))
    until(page, "return location.pathname === '/round/bac-01/1' && !!document.getElementById('round-events')")
    kinds = page.execute_script("return [...document.querySelectorAll('#round-events tbody tr')].map(r => "
                                "r.cells[2].textContent)")
    assert kinds == ["round_start", "card", "card", "card", "card", "result"]
    assert page.execute_script("return document.getElementById('outcome').textContent") == \
        "Result: P 2H 5C = 7  |  B KD 6S = 6  ->  PLAYER"
    first = page.execute_script("return document.querySelector('#round-events tbody tr').cells[1].textContent")
    began = BEGAN.astimezone(ZoneInfo("America/Los_Angeles"))
    assert first == began.strftime("%Y-%m-%d %H:%M:%S UTC") + began.strftime("%z")[:3] + ":" + began.strftime("%z")[3:]
    # the voided round: its gap where it is, who voided it and why, as text
    page.get(board.url + "/round/bac-01/2")
    missing = until(page, "const m = document.querySelector('tr.missing'); return m && m.textContent")
    assert missing == "10\u201311gapnot in the archive (unfillable: the journal no longer holds seqs before 40 (pruned))"
    assert page.execute_script("return document.getElementById('outcome').textContent") == \
        f"Voided by pit:ann: {HOSTILE}"
    assert page.execute_script("return window.__xss === undefined && !document.querySelector('main img, main script')")
    screenshot(page, "board-round.png")
    page.find_element("id", "printable").click()          # the printable page, from the round's page
    until(page, "return location.pathname === '/print/bac-01/2'")
    assert "Voided by pit:ann" in page.find_element("tag name", "body").text
    assert page.execute_script("return window.__xss === undefined && document.querySelectorAll('script, img').length"
                               " === 0")


def test_the_export_is_the_archives_round_and_says_who_exported_it(board, archive) -> None:
    vic = viewer(board)
    status, head, body = vic.request("/api/archive/bac-01/round/2?download=1")
    assert status == 200 and head["Content-Disposition"] == 'attachment; filename="bac-01-round-2.json"'
    exported = json.loads(body)
    with psycopg.connect(archive) as conn:
        expected = find_round(conn, "bac-01", 2).to_json()
    assert exported.pop("exported")["by"] == "vic"
    assert exported == json.loads(json.dumps(expected))
    assert exported["missing"] == [{"first_seq": 10, "last_seq": 11}] and exported["by"] == "pit:ann"
    status, _, page = vic.request("/print/bac-01/2")
    text = page.decode()
    assert status == 200 and "<script>window" not in text and "&lt;script&gt;window" in text and "by vic." in text


@pytest.mark.parametrize(("path", "status"), [
    ("/api/archive/bac-01/round/3", 404),               # never dealt: not in the archive
    ("/api/archive/bac-01/at?t=2026-11-20T14:00:15", 400),   # a time without its offset is not guessed at
    ("/api/archive/bac-01/at?t=yesterday", 400),
    ("/api/archive/bac-01/rounds?before=x", 400),
    ("/api/archive/a%22b/round/1", 404),                # not a table id
    ("/round/%3Cscript%3E/1", 404), ("/print/bac-01/0", 404), ("/api/archive/bac-01/round/99999999999", 404),
])
def test_what_cannot_be_a_dispute_is_refused(board, path: str, status: int) -> None:
    assert viewer(board).request(path)[0] == status


def test_a_time_before_the_first_round_finds_none_and_the_history_pages_back(board) -> None:
    vic = viewer(board)
    assert json.loads(vic.request(f"/api/archive/bac-01/at?t={at(-1).replace('+', '%2B')}")[2])["round"] is None
    assert json.loads(vic.request(f"/api/archive/bac-01/at?t={at(61).replace('+', '%2B')}")[2])["round"] == 2
    older = json.loads(vic.request("/api/archive/bac-01/rounds?before=2")[2])
    assert [r.get("round") for r in older["rounds"]] == [1] and older["older"] is None


def test_without_an_archive_or_a_login_there_is_no_dispute(archive: str, tmp_path: Path) -> None:
    server = serve(Picture(), "127.0.0.1", 0, users_file=users_file(tmp_path))
    try:
        assert viewer(server).request("/api/archive/bac-01/round/1")[0] == 503
        assert BoardClient(server.url).request("/api/archive/bac-01/round/1")[0] == 401
    finally:
        server.stop()


def test_a_slow_archive_holds_up_no_stream(archive: str, tmp_path: Path, monkeypatch) -> None:
    """The archive's answers are made on the board's pool: while one waits on the database, the
    loop's thread goes on writing every browser's stream."""
    picture = Picture()
    server = serve(picture, "127.0.0.1", 0, read_db=archive, keepalive=30)
    held, release = threading.Event(), threading.Event()
    real = server.archive.round

    def slow(table: str, number: int):
        held.set()
        release.wait(30)
        return real(table, number)

    monkeypatch.setattr(server.archive, "round", slow)
    try:
        stream = Stream(server.url + "/events")
        stream.json("snapshot")
        answers: list[int] = []
        asking = threading.Thread(target=lambda: answers.append(BoardClient(server.url).request(
            "/api/archive/bac-01/round/1")[0]))
        asking.start()
        assert held.wait(30)
        picture("tcp-01", "status", Table(id="tcp-01", game="three_card_poker").status())
        assert stream.json("patch")["table"] == "tcp-01"              # while the archive's answer waits
        assert BoardClient(server.url).request("/")[0] == 200
        release.set()
        asking.join(30)
        assert answers == [200]
        stream.close()
    finally:
        release.set()
        server.stop()
