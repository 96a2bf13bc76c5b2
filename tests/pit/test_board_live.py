"""The board's users acting on the floor, end to end (issue 22): a real broker, the real pit service
archiving into PostgreSQL, the board's own server and headless Chromium. An acknowledgement made in
one browser reaches another browser live and the archive; a void sent from the board reaches a real
simulated table, which records it as the user's; a viewer is not offered (and is refused) what a
supervisor may do; a table's and a user's text is shown as text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from archive_support import ArchiveView
from browser_support import confirm, log_in, needs_chromium, screenshot, until
from pit_support import USERS, BoardClient, users_file
from sim_table import SimTable

from controller.pit.board.picture import Picture
from controller.pit.board.web import BoardServer, serve
from controller.pit.service import PitService

pytestmark = needs_chromium

HOSTILE = '<img src=x onerror="window.__xss = 1"><script>window.__xss = 2</script>'
NO_XSS = "return window.__xss === undefined && !document.querySelector('main img, main script')"


@pytest.fixture
def live(broker, pit_factory, tmp_path: Path) -> Iterator[tuple[PitService, Picture, BoardServer]]:
    """`tablectl pit --db --http --users-file`: one process archives, and its board's users act."""
    picture = Picture()
    service = pit_factory(broker, client_id="pit-archive-1", start=False)
    service.add_observer(picture)
    service.start()
    server = serve(picture, "127.0.0.1", 0, users_file=users_file(tmp_path), link=service)
    yield service, picture, server
    server.stop()


def test_an_acknowledgement_reaches_a_second_browser_and_the_archive(live, fake_table, browsers,
                                                                     archive_view: ArchiveView) -> None:
    service, picture, server = live
    fake = fake_table("bac-07")
    fake.status()
    alarm = fake.event(1, "alarm", {"code": "outbox_full", "severity": "critical", "message": HOSTILE, "card": None,
                                    "expected": None, "missing": [], "extra": [], "action": "finish the round"})
    ann, vic = browsers(), browsers()
    log_in(vic, server.url, "vic", USERS["vic"][1])
    until(vic, "const c = document.querySelector('article[data-table=\"bac-07\"]'); "
               "return c && c.classList.contains('unacked-critical')")      # loud until someone owns it
    log_in(ann, server.url, "ann", USERS["ann"][1], then="/table/bac-07")
    until(ann, "return document.querySelector('[data-action=ack]')").click()
    screenshot(ann, "board-acknowledge.png")
    said = confirm(ann, {"ack-note": HOSTILE, "ack-assignee": "vic"})
    assert said == "Done.", said
    # the other browser, live: the cell is owned, and quiet, but the alarm is still open
    shown = until(vic, "const c = document.querySelector('article[data-table=\"bac-07\"]'); "
                       "return c && !c.classList.contains('unacked-critical') && c.querySelector('.worst').textContent")
    assert "ack ann" in shown and c_level(vic) == "critical"
    row = archive_view.wait(lambda: archive_view.query(
        "SELECT by_user, note, assignee, code, alarm_seq FROM acknowledgements WHERE table_id = 'bac-07'"),
        "the acknowledgement archived")
    assert row == [("ann", HOSTILE, "vic", "outbox_full", alarm["seq"])]
    # the viewer's page of the table: the owner, the note as text, and nothing to press
    vic.get(server.url + "/table/bac-07")
    note = until(vic, "const q = document.querySelector('.alarm .ack .note'); return q && q.textContent")
    screenshot(vic, "board-acknowledged.png")
    assert note == HOSTILE and vic.execute_script(NO_XSS)
    assert vic.execute_script("return document.querySelectorAll('[data-action]').length") == 0
    assert ann.execute_script(NO_XSS)
    assert service.counters()["acks"] == 1 and picture.errors == 0


def c_level(driver) -> str:
    return driver.execute_script("return document.querySelector('article[data-table=\"bac-07\"]').dataset.level")


@pytest.fixture
def dealing(broker, tmp_path: Path) -> Iterator[SimTable]:
    """A real simulated table (controller, devices, dealer), held at its first round's second card."""
    table = SimTable(broker, tmp_path / "table", seed=41)
    held = table.dealer.hold_at("card", 2)
    table.start()
    try:
        assert held.wait(60), "the dealer never reached the second card"
        yield table
    finally:
        table.stop()


def test_a_void_from_the_board_reaches_the_table_with_the_users_name(live, dealing: SimTable, browsers,
                                                                     archive_view: ArchiveView) -> None:
    _, picture, server = live
    table = dealing.cfg.table.id
    ann, vic = browsers(), browsers()
    log_in(vic, server.url, "vic", USERS["vic"][1], then=f"/table/{table}")
    log_in(ann, server.url, "ann", USERS["ann"][1], then=f"/table/{table}")
    button = until(ann, "return document.querySelector('[data-action=void]')")
    assert button.text == "Void round 1"
    button.click()
    assert confirm(ann, {"void-reason": "card <b>exposed</b> at seat 2"}) == "Done."
    void = dealing.wait_event("void")
    assert void["data"]["by"] == "pit:ann" and void["data"]["reason"] == "card <b>exposed</b> at seat 2"
    archived = archive_view.wait(lambda: archive_view.query(
        "SELECT data FROM events WHERE table_id = %s AND kind = 'void'", table), "the void archived")
    assert archived[0][0]["by"] == "pit:ann" and archived[0][0]["round"] == 1
    # the viewer was never offered it, and is refused it over HTTP
    assert vic.execute_script("return document.querySelectorAll('[data-action]').length") == 0
    viewer = BoardClient(server.url)
    assert viewer.login("vic", USERS["vic"][1]) == 303
    status, body = viewer.post("/api/void", {"table": table, "round": 2, "reason": "x"})
    assert status == 403 and "vic (viewer) may not void" in body["error"]
    assert [e for e in dealing.events("void")] == [void]       # nothing more was voided
    assert picture.errors == 0
