"""The floor at a glance (issue 22.1): 48 tables on one 1920x1080 screen, in the floor's order (the
same as `tablectl watch`: trouble first, worst and oldest first, then by area and id), with a summary
of the floor and of the pit's own health, filters by game and area kept in the URL, and each
table's detail one click away. In headless Chromium against the board's own server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from browser_support import needs_chromium, screenshot, until
from pit_support import FLOOR_AREAS, floor

from controller.pit.board.areas import Areas
from controller.pit.board.collected import Collected
from controller.pit.board.picture import Picture, floor_order
from controller.pit.board.web import BoardServer, serve
from controller.pit.report.shifts import Shifts

pytestmark = needs_chromium

CELLS = "return [...document.querySelectorAll('#tiles > li:not([hidden]) article')].map(a => a.dataset.table)"


@pytest.fixture
def floor_board() -> Iterator[tuple[Picture, BoardServer]]:
    # one shift a day, starting twelve hours from now: the floor's hands are all in one shift
    turn = (datetime.now(UTC).hour + 12) % 24
    picture = Picture(areas=Areas.parse(FLOOR_AREAS),
                      collected=Collected(Shifts.parse(f"all={turn:02d}-{turn:02d}"), UTC))
    for table, kind, body in floor(48):
        picture(table, kind, body)
    picture("pit-archive-1", "pit", {"online": True, "client_id": "pit-archive-1", "archive": "postgresql://pit@db/x",
                                     "db": "up", "counters": {"events_held": 0, "rejected": 2}, "ts": time.time(),
                                     "commit_lag": 0.04, "gaps": {"tcp-01": {"open": [1, 844]},
                                                                  "jok-02": {"unfillable": [2, 12]}},
                                     "broker_risks": ["broker config /etc/mosquitto/mosquitto.conf: max_queued_messages "
                                                      "not set (Mosquitto's default 1000): the broker queues at most "
                                                      "1,000 events ..."]})
    server = serve(picture, "127.0.0.1", 0)
    yield picture, server
    server.stop()


def test_48_tables_fit_one_full_hd_screen_in_the_floors_order(floor_board, browsers) -> None:
    picture, server = floor_board
    page = browsers(1920, 1080, screen=True)   # a floor screen's kiosk browser
    page.get(server.url + "/")
    until(page, "return document.querySelectorAll('#tiles article').length === 48")
    view = page.execute_script("return [innerWidth, innerHeight]")
    assert view == [1920, 1080]
    outside = page.execute_script(
        "return [...document.querySelectorAll('#tiles article')].filter(a => { const r = a.getBoundingClientRect();"
        " return r.bottom > innerHeight || r.right > innerWidth || r.width < 200; }).map(a => a.dataset.table)")
    assert outside == []
    # readable from a step back: the table's id large, the rest not small
    sizes = page.execute_script(
        "const a = document.querySelector('#tiles article'); const px = s => parseFloat(getComputedStyle("
        "a.querySelector(s)).fontSize); return [px('h2'), px('.meta'), px('.next')]")
    assert sizes[0] >= 24 and min(sizes[1:]) >= 15, sizes
    order = page.execute_script(CELLS)
    assert order == [t["table"] for t in floor_order(picture.tiles()["tables"])]
    levels = page.execute_script("return [...document.querySelectorAll('#tiles article')].map(a => a.dataset.level)")
    assert levels[:5] == ["critical", "fault", "fault", "fault", "fault"] and levels[-1] == "ok"
    # then by area: the tables without trouble run Pit 1, Pit 2, Pit 3, Poker room
    ok = [t for t in floor_order(picture.tiles()["tables"]) if t["condition"]["level"] == "ok"]
    assert [t["area"] for t in ok] == sorted(t["area"] for t in ok)
    summary = page.execute_script("return document.getElementById('summary').textContent")
    assert "48 tables" in summary and "offline" in summary and "open alarms" in summary
    pit = page.execute_script("return document.getElementById('pit-health').textContent")
    assert "broker settings that lose events: max_queued_messages" in pit
    assert "2 events refused" in pit and "tcp-01 844 seqs missing (asked for)" in pit and "jok-02 12 seqs lost" in pit
    path = screenshot(page, "pit-board-floor.png")
    assert path.stat().st_size > 50_000


def test_filters_by_game_and_area_are_kept_in_the_url_and_a_cell_opens_its_table(floor_board, browser) -> None:
    from selenium.webdriver.support.ui import Select

    picture, server = floor_board
    browser.get(server.url + "/")
    until(browser, "return document.querySelectorAll('#tiles article').length === 48")
    Select(browser.find_element("id", "filter-area")).select_by_value("Poker room")
    shown = until(browser, CELLS.replace("return ", "const c = ") + "; return c.length < 48 && c")
    assert sorted(shown) == sorted(t["table"] for t in picture.tiles()["tables"] if t["area"] == "Poker room")
    Select(browser.find_element("id", "filter-game")).select_by_value("holdem")
    until(browser, "return location.search === '?area=Poker+room&game=holdem'")
    browser.refresh()      # the filters are the URL's: a screen reloaded shows the same part of the floor
    shown = until(browser, CELLS.replace("return ", "const c = ") + "; return c.length && c")
    assert sorted(shown) == sorted(t["table"] for t in picture.tiles()["tables"] if t["game"] == "holdem")
    browser.find_element("css selector", f"article[data-table='{shown[0]}'] .next").click()
    until(browser, "return location.pathname === arguments[0]", f"/table/{shown[0]}")
    until(browser, "return !!document.querySelector('article.tile .results')")
    collected = browser.execute_script("return document.querySelector('article.tile .collected').textContent")
    assert "fees 9.00 · time 0.00 · jackpot 3.00 = 12.00" in collected, collected   # three hands of the shift
