"""A table's integrity figures in a real browser (issue 25.3): a stand-in table on a real Mosquitto
publishes its retained dice and integrity figures and raises an ``outcome_bias`` warning; a pit
service (board-only) hands them to the board, and headless Chromium shows, on the table's page,
each die's throws and p-value, each wager's rounds, chi-square and flagged class with its class
table on demand, and the shuffle's last shoe and suspect shoes; on the floor, the warning as any
warning and a small integrity mark. The page is saved as docs/pit-board-integrity.png."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import integrity_figures as figures
import pytest
from browser_support import needs_chromium, screenshot, until
from pit_support import wait_picture

from controller.pit.board.picture import Picture
from controller.pit.board.web import BoardServer, serve

pytestmark = needs_chromium

DOCS = Path(__file__).resolve().parents[2] / "docs"
BIAS = ("player_dealer_hand: 'straight' came 42 times in 600 rounds (19.5 expected); chi-square 24.3 (3 degrees "
        "of freedom), p = 2.2e-05 < 0.0001")
ACTION = ("surveillance: review the table's rounds and its shuffler, shoe and deck (integrity topic); after the "
          "cause is found and the cards or device replaced, reset the counts (pit cmd/integrity_reset)")


@pytest.fixture
def shown(broker, pit_factory, fake_table) -> Iterator[tuple[Picture, BoardServer]]:
    picture = Picture()
    service = pit_factory(broker, client_id="pit-board-1", db_url=None, group=None, start=False)
    service.add_observer(picture)
    service.start()
    fake = fake_table("tcp-03", game="three_card_poker")
    fake.status(next_seq=1)
    fake.send("dice", figures.dice(fake.table), retain=True)
    fake.send("integrity", figures.integrity(fake.table), retain=True)
    warning = fake.envelope(1, "alarm", {"code": "outcome_bias", "severity": "warning", "message": BIAS, "card": None,
                                         "expected": None, "missing": [], "extra": [], "action": ACTION})
    warning["ts"] = time.time() - 300    # raised five minutes ago, by the table's clock
    fake.raw(f"{fake.base}/event/alarm", json.dumps(warning).encode())
    wait_picture(picture, lambda: len((picture.detail("tcp-03") or {"table": {"figures": {}}})["table"]["figures"]) == 2
                 and picture.detail("tcp-03")["table"]["alarms"], "the figures and the warning")
    server = serve(picture, "127.0.0.1", 0)
    yield picture, server
    server.stop()


def test_a_tables_page_shows_its_integrity_figures_and_the_floor_a_mark(shown, browsers) -> None:
    picture, server = shown
    page = browsers(1600, 1800)
    page.get(server.url + "/table/tcp-03")
    until(page, "return document.querySelector('#integrity-shuffle')")
    dice = page.execute_script("return [...document.querySelectorAll('#integrity-dice tbody tr')]"
                               ".map(r => [...r.cells].map(c => c.textContent))")
    assert dice == [["1", "600", "0.16", "0.999", "4: 103 vs 100.0", ""],
                    ["2", "600", "22.74", "0.00038", "6: 143 vs 100.0", "FLAGGED"]]
    wager = page.execute_script("return [...document.querySelector('#integrity-outcomes tbody tr').cells]"
                                ".map(c => c.textContent)")
    assert wager[0] == "player_dealer_hand" and wager[1] == "600"
    assert wager[3:] == ["24.27 (3 df)", "0.000022", "FLAGGED: straight"]
    # the class table: open for a flagged wager, count against expected, the pooled rare classes said
    classes = page.execute_script(
        "const d = document.querySelector('#integrity-outcomes details'); return [d.open, "
        "[...d.querySelectorAll('tbody tr')].map(r => [...r.cells].map(c => c.textContent))]")
    assert classes[0] is True
    # the pooled cell was off: the class in it least likely by itself is the one flagged, the rest not
    assert classes[1][0] == ["royal flush (pooled)", "0", "0.1", "-0.3", "0.000181", "1.000", ""]
    assert classes[1][3] == ["straight (pooled)", "42", "19.5", "+5.1", "0.0326", "", "FLAGGED"]
    assert classes[1][4] == ["flush", "30", "29.8", "+0.0", "0.0496", "", ""]
    last = page.execute_script("return document.querySelector('#integrity-shuffle .last').textContent")
    assert last == "Last shoe (#3): 130 against 64.0, z = 8.52, p < 0.000001"
    suspect = page.execute_script("return [...document.querySelectorAll('#integrity-shuffle tr.flagged')]"
                                  ".map(r => r.dataset.shoe)")
    assert suspect == ["3"]
    # the warning, as any warning on the table's tile
    alarm = page.execute_script("const a = document.querySelector('li.alarm[data-code=outcome_bias]');"
                                " return a && [a.className, a.querySelector('.sev').textContent]")
    assert alarm == ["alarm warning", "WARNING"]
    path = screenshot(page, "pit-board-integrity.png")
    assert path.stat().st_size > 50_000
    shutil.copyfile(path, DOCS / "pit-board-integrity.png")
    # the floor: the warning is the cell's worst, and a small mark says which figures are flagged
    page.get(server.url + "/")
    cell = until(page, "const c = document.querySelector('article[data-table=\"tcp-03\"]'); return c && "
                       "[c.dataset.level, c.querySelector('.worst').textContent, "
                       "c.querySelector('.integrity-flag').getAttribute('aria-label')]")
    assert cell[0] == "warning" and "outcome_bias" not in cell[1] and "came 42 times in 600 rounds" in cell[1]
    assert cell[2] == "integrity flagged: dice, outcomes, shuffle"
    assert picture.errors == 0
