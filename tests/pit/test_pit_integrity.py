"""A table's integrity figures in the pit (issue 25.3), against a real Mosquitto, the real pit
service (an archiving one on PostgreSQL and a board-only one) and the board's own server: the
retained ``<prefix>/<table>/dice`` and ``<prefix>/<table>/integrity`` a stand-in table publishes
(built to their schemas: tests/integrity_figures.py) reach the picture, the table's page JSON and
the floor's tile; nothing of them is archived; bad ones are counted and dropped, and the service
goes on."""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Iterator

import integrity_figures as figures
import pytest
from archive_support import FakeTable
from mqtt_support import WAIT
from pit_support import BoardClient, wait_picture

from controller.pit.board.picture import Picture
from controller.pit.board.web import BoardServer, serve
from controller.pit.client import PitClient
from controller.pit.service import PitService
from controller.pit.watch.command import Watch
from controller.pit.watch.glance import Glance
from controller.pit.watch.screen import board_lines


@pytest.fixture
def board(broker, pit_factory) -> Iterator[tuple[PitService, PitService, Picture, Picture, BoardServer]]:
    """An archiving service and a board-only one, each with its picture; the board-only one's
    picture served over HTTP (`tablectl pit --http` without --db)."""
    archived, shown = Picture(), Picture()
    archiving = pit_factory(broker, client_id="pit-archive-1", start=False)
    archiving.add_observer(archived)
    board_only = pit_factory(broker, client_id="pit-board-1", db_url=None, group=None, start=False)
    board_only.add_observer(shown)
    archiving.start()
    board_only.start()
    server = serve(shown, "127.0.0.1", 0)
    yield archiving, board_only, archived, shown, server
    server.stop()


def figures_of(picture: Picture, table: str) -> dict:
    detail = picture.detail(table)
    return detail["table"]["figures"] if detail else {}


def test_the_figures_reach_both_pictures_the_page_and_the_tile_and_nothing_is_archived(
        board, fake_table, archive_view) -> None:
    archiving, board_only, archived, shown, server = board
    fake: FakeTable = fake_table("tcp-03", game="three_card_poker")
    fake.status()
    dice, integrity = figures.dice(fake.table), figures.integrity(fake.table)
    fake.send("dice", dice, retain=True)
    fake.send("integrity", integrity, retain=True)
    for picture in (archived, shown):
        wait_picture(picture, lambda p=picture: len(figures_of(p, "tcp-03")) == 2, "both topics' figures")
    page = figures_of(shown, "tcp-03")
    assert page == figures_of(archived, "tcp-03")
    cup = page["dice"]["cups"][0]
    assert (cup["cup"], cup["serial"], cup["shakes"]) == ("dice_cup", "CUP-0042", 600)
    assert [(d["die"], d["shakes"], d["chi_square"], d["flagged"]) for d in cup["dice"]] == [
        (1, 600, 0.16, False), (2, 600, 22.74, True)]
    assert math.isclose(cup["dice"][1]["p_value"], 0.0003785, rel_tol=1e-3)
    assert cup["dice"][1]["most_off"] == {"face": 6, "count": 143, "expected": 100.0}
    (w,) = page["integrity"]["wagers"]
    pool = ["royal flush", "straight flush", "three of a kind", "straight"]
    assert (w["wager"], w["rounds"], w["df"], w["flagged"], w["pooled"]) == (
        "player_dealer_hand", 600, 3, ["straight"], pool)   # the pool was off; the straights in it
    assert math.isclose(w["chi_square"], 24.2713) and math.isclose(w["p_value"], 2.19e-5, rel_tol=1e-2)
    straight = next(c for c in w["classes"] if c["name"] == "straight")
    assert straight["count"] == 42 and math.isclose(straight["expected"], 600 * 720 / 22100, abs_tol=1e-4)
    shuffle = page["integrity"]["shuffle"]
    assert [(s["shoe"], s["observed"], s["flagged"]) for s in shuffle["shoes"]] == [
        (1, 60, False), (2, 70, False), (3, 130, True)]
    assert shuffle["run"]["flagged"] and shuffle["run"]["shoes"] == 3
    # the tile: only which monitors flagged something; the page JSON over HTTP: the figures
    client = BoardClient(server.url)
    status, _, body = client.request("/api/tables")
    assert status == 200
    (tile,) = json.loads(body)["tables"]
    assert tile["integrity"] == ["dice", "outcomes", "shuffle"] and "figures" not in tile
    status, _, body = client.request("/api/table/tcp-03")
    assert status == 200 and json.loads(body)["table"]["figures"] == page
    # nothing of them is archived, and nothing refused: the table's next event is, alone
    fake.event(1)
    archive_view.wait(lambda: archive_view.complete(fake.table, 1), "the table's event archived")
    assert list(archive_view.envelopes(fake.table)) == [1]
    assert not archive_view.rejects()
    for service in (archiving, board_only):
        counts = service.counters()
        assert counts["bad_dice"] == 0 and counts["bad_integrity"] == 0 and counts["observer_errors"] == 0, counts
    assert archived.errors == shown.errors == 0


def test_bad_figures_are_counted_dropped_and_the_service_goes_on(board, fake_table) -> None:
    archiving, board_only, archived, shown, _server = board
    fake = fake_table("tcp-04", game="three_card_poker")
    fake.status()
    fake.send("dice", figures.dice(fake.table), retain=True)
    wait_picture(shown, lambda: "dice" in figures_of(shown, "tcp-04"), "the good dice figures")
    good = figures_of(shown, "tcp-04")
    no_cups = {k: v for k, v in figures.dice(fake.table).items() if k != "cups"}
    huge = figures.dice(fake.table) | {"padding": "x" * 300_000}
    nan = json.dumps(figures.integrity(fake.table) | {"p_bias": math.nan}).encode()   # json.dumps writes NaN
    for topic, payload in (("dice", b"\xff\xfe not utf-8"), ("dice", json.dumps(no_cups).encode()),
                           ("dice", json.dumps(huge).encode()), ("integrity", b"[1, 2, 3]"),
                           ("integrity", json.dumps(figures.integrity("another-table")).encode()),
                           ("integrity", nan)):
        fake.raw(f"{fake.base}/{topic}", payload)
    for service in (archiving, board_only):
        assert service.wait(lambda c: c["bad_dice"] == 3 and c["bad_integrity"] == 3, WAIT), service.counters()
    assert figures_of(shown, "tcp-04") == good and figures_of(archived, "tcp-04") == good   # still the good ones
    # and the next good figures are taken: a fair shuffle, nothing flagged
    fair = figures.integrity(fake.table, outcomes={}, shuffle_figures=figures.shuffle((60, 70, 66)))
    fake.send("integrity", fair, retain=True)
    wait_picture(shown, lambda: "integrity" in figures_of(shown, "tcp-04"), "the good integrity figures")
    assert not figures_of(shown, "tcp-04")["integrity"]["shuffle"]["run"]["flagged"]
    assert shown.tiles()["tables"][0]["integrity"] == ["dice"]
    assert archiving.counters()["observer_errors"] == 0 and shown.errors == 0


def test_figures_before_the_status_wait_for_the_tile_and_cleared_figures_leave_it(broker, pit_factory,
                                                                               fake_table) -> None:
    fake = fake_table("hot-02", game="hot_action")
    fake.send("dice", figures.dice(fake.table), retain=True)
    fake.send("integrity", figures.integrity(fake.table, shuffle_figures=None), retain=True)
    picture, told, cond = Picture(), [], threading.Condition()

    def observer(table: str, kind: str, body: dict) -> None:
        picture(table, kind, body)
        with cond:
            told.append(kind)
            cond.notify_all()
    service = pit_factory(broker, client_id="pit-board-2", db_url=None, group=None, start=False)
    service.add_observer(observer)
    service.start()
    with cond:
        assert cond.wait_for(lambda: {"dice", "integrity"} <= set(told), WAIT), told
    assert picture.detail("hot-02") is None and picture.tiles()["tables"] == []   # figures make no tile
    fake.status()
    wait_picture(picture, lambda: len(figures_of(picture, "hot-02")) == 2, "the figures on the new tile")
    assert picture.tiles()["tables"][0]["integrity"] == ["dice", "outcomes"]
    assert figures_of(picture, "hot-02")["integrity"]["shuffle"] is None
    fake.raw(f"{fake.base}/integrity", b"", retain=True)       # cleared: the page drops them
    wait_picture(picture, lambda: "integrity" not in figures_of(picture, "hot-02"), "the integrity figures gone")
    assert picture.tiles()["tables"][0]["integrity"] == ["dice"]
    assert service.counters()["bad_integrity"] == 0


def test_a_hostile_payload_reaches_the_page_only_as_the_fields_it_names() -> None:
    """What `tablectl watch` might hand the picture unchecked: wrong types are left out, lists are
    bounded, nothing else passes."""
    picture = Picture()
    picture("t9", "status", {"online": True, "table": "t9", "birth": 1, "game": "baccarat", "next_seq": 1})
    body = figures.integrity("t9")
    body["outcomes"] = {f"w{i}": figures.wager() | {"rounds": "600", "secret": "9C"} for i in range(100)}
    body["shuffle"]["shoes"] = [figures.shoe(i + 1, 60) | {"order": ["AS", "KD"]} for i in range(50)]
    picture("t9", "integrity", body)
    picture("t9", "dice", {"cups": {"dice_cup": {"dice": [{"die": True}, {"die": 1, "p_value": "low", "biased": 1}]}}})
    page = picture.detail("t9")["table"]["figures"]
    assert len(page["integrity"]["wagers"]) == 32 and len(page["integrity"]["shuffle"]["shoes"]) == 10
    assert page["integrity"]["wagers"][0]["rounds"] is None and "secret" not in json.dumps(page)
    assert "order" not in json.dumps(page)
    assert page["dice"]["cups"][0]["dice"] == [{"die": 1, "shakes": None, "chi_square": None, "p_value": None,
                                                "flagged": False, "most_off": None}]
    assert picture.errors == 0


class _Said:
    """`tablectl watch`'s ``out``: its lines, and a wait for one (on a condition, never a poll)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.cond = threading.Condition()

    def __call__(self, line: str) -> None:
        with self.cond:
            self.lines.append(line)
            self.cond.notify_all()

    def wait(self, line: str) -> None:
        with self.cond:
            assert self.cond.wait_for(lambda: line in self.lines, WAIT), self.lines[-10:]


def test_watch_says_the_figures_in_a_word_and_its_board_marks_a_flagged_table(broker, fake_table) -> None:
    """`tablectl watch`: one line when what a table's figures flag changes (not at each republish);
    its board view (the same picture as the pit board) a line under a flagged table."""
    fake = fake_table("tcp-05", game="three_card_poker")
    fake.status()
    said, glance = _Said(), Glance()
    lines = Watch("casino", out=said)
    board = Watch("casino", out=lambda line: None, observer=glance.observe, event_lines=False)
    clients = [PitClient(broker.host, broker.port, w.topics(), w.on_message, on_bad=w.on_bad) for w in (lines, board)]
    for client in clients:
        client.start()
    try:
        fake.send("dice", figures.dice(fake.table, (figures.FAIR, figures.FAIR)), retain=True)
        said.wait("[tcp-05] dice: ok")
        fake.send("dice", figures.dice(fake.table), retain=True)
        said.wait("[tcp-05] dice: flagged: dice")
        fake.send("integrity", figures.integrity(fake.table), retain=True)
        fake.send("integrity", figures.integrity(fake.table), retain=True)     # republished: nothing new to say
        said.wait("[tcp-05] integrity: flagged: outcomes, shuffle")
        fake.send("integrity", {"table": fake.table, "outcomes": "none"})     # not the schema: one BAD line
        fake.raw(f"{fake.base}/integrity", b"", retain=True)
        said.wait("[tcp-05] integrity: cleared")
        assert sum("integrity: flagged" in line for line in said.lines) == 1
        assert any(line.startswith("BAD") and "integrity" in line for line in said.lines), said.lines
        wait_picture(glance.picture, lambda: (glance.tables() or [{}])[0].get("integrity") == ["dice"],
                     "the board view's picture has the dice flagged")
        shown = [text for text, _ in board_lines("watching casino/+", glance.tables(), [], time.time())]
        assert "     integrity flagged: dice" in shown, shown
    finally:
        for client in clients:
            client.stop()
        lines.close()
        board.close()
